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
    /// The sort keys' columns, found by name once for all the models this order keys.
    let columns: QueryEvaluator.Columns

    /// A model's place in the order: its sort keys and tie-breakers.
    ///
    /// The first sort key's value is kept inline: most fetches sort by one key, and an array of one value per
    /// model keyed would be an allocation and a free for each.
    package struct Key {
        /// The first sort key's value; `NULL` when the order has no sort key.
        var first: StoredValue
        /// The values of the sort keys after the first.
        var rest: [StoredValue]
        var primaryKey: Int64?
        /// Among unsaved models, the order they were inserted in.
        var position: Int

        /// The value of the sort key at `index`.
        @inline(__always) subscript(index: Int) -> StoredValue {
            index == 0 ? first : rest[index - 1]
        }
    }

    package init(_ plan: FetchPlan) {
        entity = plan.entity
        orderings = plan.sortOrderings
        ascending = plan.sortOrderings.map(\.ascending)
        columns = QueryEvaluator.Columns(entity: plan.entity)
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
        try key(of: evaluator(of: model), position: position, of: count)
    }

    /// An evaluator of `model`'s current values that shares this order's columns found by name.
    func evaluator(of model: any PersistentModel) -> QueryEvaluator {
        QueryEvaluator(entity: entity, backingData: model.persistentBackingData, columns: columns)
    }

    /// The key of the model `evaluator` reads; `position` orders unsaved models among themselves (of `count`).
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`, for a sort key that can't be evaluated.
    func key(of evaluator: QueryEvaluator, position: Int, of count: Int) throws -> Key {
        func value(of ordering: QueryOrdering) throws -> StoredValue {
            // An unsaved model's key will be larger than every saved one's, in the order models were inserted.
            if case .column(StoreLayout.primaryKeyColumn) = ordering.expression, evaluator.primaryKey == nil {
                return .integer(.max - Int64(count - position))
            }
            return try evaluator.evaluate(ordering.expression)
        }
        guard let first = orderings.first else {
            return Key(first: .null, rest: [], primaryKey: evaluator.primaryKey, position: position)
        }
        return Key(
            first: try value(of: first), rest: orderings.count == 1 ? [] : try orderings.dropFirst().map(value),
            primaryKey: evaluator.primaryKey, position: position)
    }

    /// Whether the model with key `left` comes before the one with key `right`.
    package func precedes(_ left: Key, _ right: Key) -> Bool {
        for index in ascending.indices {
            let order = QueryEvaluator.order(left[index], right[index], collation: collations[index])
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

extension FetchPlan {
    /// Merges models read from the store (already in `ORDER BY` order) with the unsaved models of `candidates` that
    /// match the fetch's condition, judged in memory with the store's semantics, into the order the store will give
    /// them once saved (`StoreOrder`; unsaved models in `candidates`' order among themselves). Stops after `count`
    /// models when given.
    ///
    /// When the store's rows fill the `count` wanted, a candidate that sorts after the last of those can't be among
    /// them: it is left out before it is judged, and only the candidates that land in the page are sorted. One
    /// evaluator reads each candidate for its sort key and the condition.
    ///
    /// - Throws: as `QueryEvaluator.evaluate(_:)`, for a condition or sort key that can't be evaluated.
    package func mergeInMemory<T: PersistentModel>(stored: [T], candidates: [T], count: Int?) throws -> [T] {
        let wanted = count ?? .max
        guard !candidates.isEmpty, wanted > 0 else { return Array(stored.prefix(wanted)) }
        let order = StoreOrder(self)
        let condition = request.condition
        let bound = stored.count >= wanted ? try order.key(of: stored[wanted - 1]) : nil
        var keys: [StoreOrder.Key] = []
        var kept: [Int] = []
        keys.reserveCapacity(candidates.count)
        kept.reserveCapacity(candidates.count)
        for index in candidates.indices {
            let evaluator = order.evaluator(of: candidates[index])
            let key: StoreOrder.Key
            do {
                key = try order.key(of: evaluator, position: index, of: candidates.count)
            } catch {
                // A sort key matters only for a model the fetch returns.
                if try condition.map(evaluator.isSatisfied) ?? true { throw error }
                continue
            }
            if let bound, !order.precedes(key, bound) { continue }
            if let condition, !(try evaluator.isSatisfied(condition)) { continue }
            keys.append(key)
            kept.append(index)
        }
        let sorted = Self.firstPositions(of: keys, count: wanted, by: order)
        var merged: [T] = []
        merged.reserveCapacity(Swift.min(wanted, stored.count + sorted.count))
        var storedIndex = 0
        var candidateIndex = 0
        var storedKey: StoreOrder.Key?
        while merged.count < wanted, storedIndex < stored.count || candidateIndex < sorted.count {
            guard candidateIndex < sorted.count else {
                merged.append(stored[storedIndex])
                storedIndex += 1
                continue
            }
            let candidate = sorted[candidateIndex]
            guard storedIndex < stored.count else {
                merged.append(candidates[kept[candidate]])
                candidateIndex += 1
                continue
            }
            let current = try storedKey ?? order.key(of: stored[storedIndex])
            if order.precedes(keys[candidate], current) {
                storedKey = current
                merged.append(candidates[kept[candidate]])
                candidateIndex += 1
            } else {
                storedKey = nil
                merged.append(stored[storedIndex])
                storedIndex += 1
            }
        }
        return merged
    }

    /// The positions in `keys` of the first `count` keys in `order`, sorted. Positions are sorted, not models:
    /// sorting an array of a generic element runs unspecialized.
    ///
    /// For a page (`count` up to `pageLimit`) only the first `count` are kept, each found its place by binary
    /// search: a few comparisons per key where a full sort of this many keys (an insertion sort, below 64) makes a
    /// quadratic number.
    private static func firstPositions(of keys: [StoreOrder.Key], count: Int, by order: StoreOrder) -> [Int] {
        keys.withUnsafeBufferPointer { keys in
            guard count <= pageLimit else { return keys.indices.sorted { order.precedes(keys[$0], keys[$1]) } }
            var first: [Int] = []
            first.reserveCapacity(Swift.min(count, keys.count) + 1)
            for position in keys.indices {
                let key = keys[position]
                if first.count == count, let last = first.last, !order.precedes(key, keys[last]) { continue }
                // After every kept key it doesn't precede, so equal keys stay in their order (there are none:
                // keys differ at least by primary key or insertion position).
                var low = 0
                var high = first.count
                while low < high {
                    let middle = (low + high) / 2
                    if order.precedes(key, keys[first[middle]]) { high = middle } else { low = middle + 1 }
                }
                first.insert(position, at: low)
                if first.count > count { first.removeLast() }
            }
            return first
        }
    }

    /// The largest `fetchLimit` (with its offset) whose unsaved models are placed one by one instead of sorted.
    private static var pageLimit: Int { 1024 }
}
