extension ModelContext {
    /// The stored models of `entity` whose rows meet `condition` (every row: `nil`), registered in this context as a fetch registers
    /// them (a model this context already holds keeps its unsaved changes). For package modules that select rows
    /// by column rather than by a `#Predicate` over a model class they don't know.
    package func storedModels(
        of entity: Schema.Entity, where condition: QueryExpression?
    ) throws -> [any PersistentModel] {
        try mergeChangesSavedElsewhere()
        return try anyModels(StoreFetch(entity: entity, columns: entity.columnPropertyIndexes, condition: condition))
    }
}
