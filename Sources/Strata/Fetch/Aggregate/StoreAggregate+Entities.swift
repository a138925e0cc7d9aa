extension StoreAggregate {
    /// The names of the entities the aggregate reads through relationships: the destinations of its predicate's
    /// relationships and of the to-one paths among its group keys and operands (`\.merchant?.city`). Renaming a
    /// merchant's city changes the totals grouped by it, so live aggregates follow these entities too.
    package var relatedEntityNames: Set<String> {
        var names = condition?.relatedEntityNames ?? []
        for expression in keys + operands { names.formUnion(expression.relatedEntityNames) }
        return names
    }
}
