extension ModelContext {
    /// The groups an aggregate descriptor describes, each with its key and aggregates, computed by the store
    /// without loading a model.
    ///
    /// ```swift
    /// let perCategory = try context.fetch(
    ///     AggregateDescriptor(groupBy: \Expense.category, aggregates: .sum(\.cents)))
    /// for group in perCategory { print(group.key, group.value) }  // String, Int
    /// ```
    ///
    /// The totals are those of the saved models: inserts, changes and deletes this context hasn't saved yet are not
    /// included (unlike `fetchCount(_:)`). Call `save()` first to total them too. Saves of other contexts are
    /// included once saved.
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` carrying `StrataError.invalidAggregate` for a key path that can't be grouped or
    ///   totalled (a to-many relationship, a property that isn't stored), `StrataError.aggregateOverflow` for an
    ///   integer sum outside its type, `StrataError.unsupportedPredicate` for the predicate, or a store failure.
    public func fetch<T: PersistentModel, Key, Value>(
        _ descriptor: AggregateDescriptor<T, Key, Value>
    ) throws -> [AggregateResult<Key, Value>] {
        try throwingSwiftDataErrors {
            let (plan, rows) = try aggregateRows(descriptor)
            return try plan.results(rows, of: descriptor)
        }
    }

    /// The store's rows for an aggregate descriptor, with the plan that reads them as the descriptor's types
    /// (live aggregates compare the rows before reading them).
    /// - Throws: `StrataError`, as the aggregate `fetch(_:)` does.
    package func aggregateRows<T: PersistentModel, Key, Value>(
        _ descriptor: AggregateDescriptor<T, Key, Value>
    ) throws -> (plan: AggregatePlan, rows: [[StoredValue]]) {
        try mergeChangesSavedElsewhere()
        let plan = try AggregatePlan(
            descriptor, entity: entity(for: T.self), permanentIdentifiers: permanentIdentifiers)
        return (plan, try store.aggregate(plan.request))
    }
}
