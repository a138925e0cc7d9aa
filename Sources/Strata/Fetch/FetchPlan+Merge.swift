import Foundation

/// The order a fetch's `ORDER BY` gives rows, applied to models in memory: the sort keys evaluated with the store's
/// semantics (SQLite's storage-class order, NaN — the text `'NaN'` — after every number, the sort's collation),
/// then the primary key, with unsaved models after saved ones.
package struct StoreOrder {
    let entity: Schema.Entity
    let orderings: [QueryOrdering]
    let collations: [TextCollation]
    /// Each sort key's direction, kept apart so a comparison copies no ordering (and its expression).
    let ascending: [Bool]

    /// A model's place in the order: its sort keys and tie-breakers.
    package struct Key {
        var values: [StoredValue]
        var primaryKey: Int64?
        /// Among unsaved models, the order they were inserted in.
        var position: Int
    }

    package init(_ plan: FetchPlan) {
        entity = plan.entity
        orderings = plan.sortOrderings
        ascending = plan.sortOrderings.map(\.ascending)
        let declaring = QueryEvaluator(entity: plan.entity, values: { _ in .null })
        collations = plan.sortOrderings.map { ordering in
            let collation = TextCollation(ordering.collation)
            guard collation == .binary else { return collation }
            return declaring.declaredCollation(of: ordering.expression) ?? .binary
        }
    }

    /// The key of a model; `position` orders unsaved models among themselves (of `count`).
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`, for a sort key that can't be evaluated.
    package func key(of model: any PersistentModel, position: Int = 0, of count: Int = 1) throws -> Key {
        let evaluator = QueryEvaluator(entity: entity, backingData: model.persistentBackingData)
        let values = try orderings.map { ordering -> StoredValue in
            // An unsaved model's key will be larger than every saved one's, in the order models were inserted.
            if case .column(StoreLayout.primaryKeyColumn) = ordering.expression, evaluator.primaryKey == nil {
                return .integer(.max - Int64(count - position))
            }
            return try evaluator.evaluate(ordering.expression)
        }
        return Key(values: values, primaryKey: evaluator.primaryKey, position: position)
    }

    /// Whether the model with key `left` comes before the one with key `right`.
    package func precedes(_ left: Key, _ right: Key) -> Bool {
        for index in ascending.indices {
            let order = QueryEvaluator.order(left.values[index], right.values[index], collation: collations[index])
            if order != .orderedSame { return (order == .orderedAscending) == ascending[index] }
        }
        switch (left.primaryKey, right.primaryKey) {
        case (let a?, let b?): return a < b
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return left.position < right.position
        }
    }
}

/// A model judged in memory, with its place in the store's order.
private struct SortedCandidate<Model> {
    let model: Model
    let key: StoreOrder.Key
}

extension FetchPlan {
    /// Merges models read from the store (already in `ORDER BY` order) with models judged in memory, into the
    /// order the store will give them once saved (`StoreOrder`; unsaved models in `candidates`' order among
    /// themselves). Stops after `count` models when given.
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`, for a sort key that can't be evaluated.
    package func mergeInMemory<T: PersistentModel>(stored: [T], candidates: [T], count: Int?) throws -> [T] {
        let wanted = count ?? .max
        guard !candidates.isEmpty else { return Array(stored.prefix(wanted)) }
        let order = StoreOrder(self)
        let keys = try candidates.indices.map { try order.key(of: candidates[$0], position: $0, of: candidates.count) }
        // Positions are sorted, not models: sorting an array of a generic element runs unspecialized.
        let sortedCandidates = candidates.indices.sorted { order.precedes(keys[$0], keys[$1]) }.map {
            SortedCandidate(model: candidates[$0], key: keys[$0])
        }
        var merged: [T] = []
        merged.reserveCapacity(Swift.min(wanted, stored.count + candidates.count))
        var storedIndex = 0
        var candidateIndex = 0
        var storedKey: StoreOrder.Key?
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
            let current = try storedKey ?? order.key(of: stored[storedIndex])
            if order.precedes(sortedCandidates[candidateIndex].key, current) {
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
