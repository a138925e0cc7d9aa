import Foundation

extension FetchPlan {
    /// Merges models read from the store (already in `ORDER BY` order) with models judged in memory, into the
    /// order the store will give them once saved: by the sort keys, evaluated with the store's semantics (NaN
    /// after every number, SQLite's storage-class order, the sort's collation), then by primary key, with
    /// unsaved models after saved ones in `candidates`' order. Stops after `count` models when given.
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`, for a sort key that can't be evaluated.
    package func mergeInMemory<T: PersistentModel>(stored: [T], candidates: [T], count: Int?) throws -> [T] {
        let wanted = count ?? .max
        guard !candidates.isEmpty else { return Array(stored.prefix(wanted)) }
        let collations = sortOrderings.map { ordering -> TextCollation in
            let collation = TextCollation(ordering.collation)
            guard collation == .binary else { return collation }
            return QueryEvaluator(entity: entity, values: { _ in .null }).declaredCollation(of: ordering.expression) ?? .binary
        }
        func key(_ model: T, position: Int) throws -> MergeKey {
            let evaluator = QueryEvaluator(entity: entity, backingData: model.persistentBackingData)
            let values = try sortOrderings.map { ordering -> StoredValue in
                // An unsaved model's key will be larger than every saved one's, in the order models were inserted.
                if case .column(SelectStatement.primaryKeyColumn) = ordering.expression, evaluator.primaryKey == nil {
                    return .integer(.max - Int64(candidates.count - position))
                }
                return try evaluator.evaluate(ordering.expression)
            }
            return MergeKey(values: values, primaryKey: evaluator.primaryKey, position: position)
        }
        func precedes(_ left: MergeKey, _ right: MergeKey) -> Bool {
            for (index, ordering) in sortOrderings.enumerated() {
                let order = QueryEvaluator.order(left.values[index], right.values[index], collation: collations[index])
                if order != .orderedSame { return (order == .orderedAscending) == ordering.ascending }
            }
            switch (left.primaryKey, right.primaryKey) {
            case let (a?, b?): return a < b
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return left.position < right.position
            }
        }
        let sortedCandidates = try candidates.enumerated()
            .map { (model: $0.element, key: try key($0.element, position: $0.offset)) }
            .sorted { precedes($0.key, $1.key) }
        var merged: [T] = []
        merged.reserveCapacity(Swift.min(wanted, stored.count + candidates.count))
        var storedIndex = 0
        var candidateIndex = 0
        var storedKey: MergeKey?
        while merged.count < wanted, storedIndex < stored.count || candidateIndex < sortedCandidates.count {
            guard candidateIndex < sortedCandidates.count else {
                merged.append(stored[storedIndex])
                storedIndex += 1
                continue
            }
            guard storedIndex < stored.count else {
                merged.append(sortedCandidates[candidateIndex].model)
                candidateIndex += 1
                continue
            }
            let current = try storedKey ?? key(stored[storedIndex], position: 0)
            if precedes(sortedCandidates[candidateIndex].key, current) {
                storedKey = current
                merged.append(sortedCandidates[candidateIndex].model)
                candidateIndex += 1
            } else {
                storedKey = nil
                merged.append(stored[storedIndex])
                storedIndex += 1
            }
        }
        return merged
    }
}

/// A model's sort keys as the store evaluates them, and its tie-breakers.
private struct MergeKey {
    var values: [StoredValue]
    var primaryKey: Int64?
    var position: Int
}
