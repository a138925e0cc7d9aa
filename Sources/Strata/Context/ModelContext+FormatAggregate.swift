extension ModelContext {
    /// The rows of a dictionary fetch written as Core Data writes it: one ``AggregateDictionary`` per group, keyed
    /// by the descriptor's `propertiesToFetch`, computed by the store without loading a model.
    ///
    /// ```swift
    /// let rows = try context.fetch(
    ///     FormatAggregateDescriptor<Expense>(
    ///         propertiesToFetch: ["category", "@sum.cents"], propertiesToGroupBy: ["category"]))
    /// ```
    ///
    /// The totals are those of saved models, as for ``fetch(_:)-(AggregateDescriptor<T,Key,Value>)``.
    ///
    /// - Throws: `SwiftDataError.unsupportedPredicate` carrying `StrataError.invalidAggregate` naming the model and
    ///   property for a name that isn't a stored property, a total of an attribute that isn't a number, a path
    ///   through a to-many relationship or an ungrouped property; `PredicateFormatError` for a predicate that
    ///   doesn't parse; `StrataError.aggregateOverflow` for an integer sum outside `Int`; or a store failure.
    public func fetch<T: PersistentModel>(_ descriptor: FormatAggregateDescriptor<T>) throws -> [AggregateDictionary] {
        try throwingSwiftDataErrors {
            let (aggregate, slots) = try descriptor.aggregateDescriptor(entity: entity(for: T.self))
            let (plan, rows) = try aggregateRows(aggregate)
            return try plan.results(rows, of: aggregate).map { group in
                AggregateDictionary(
                    keys: descriptor.propertiesToFetch,
                    values: slots.map { slot in
                        switch slot {
                        case .key(let index): group.key[index]
                        case .value(let index): group.value[index]
                        }
                    })
            }
        }
    }
}
