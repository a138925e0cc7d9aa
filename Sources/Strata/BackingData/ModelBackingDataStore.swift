/// What a model's backing data reads from the store holding its row when no context reads for it: the
/// properties `propertiesToFetch` left out of a single model, and the relationships of a model whose context was
/// released. Every `PersistentStore` provides it, so the model layer names no store.
package protocol ModelBackingDataStore: AnyObject, Sendable {
    /// The store's identifier, part of its models' identifiers.
    var identifier: String { get }
    /// The identifier of the store holding `entity`'s rows, part of their models' identifiers: ``identifier``,
    /// unless the store spreads entities over several.
    func storeIdentifier(for entity: Schema.Entity) -> String
    /// Reads properties `columns` (indexes into `entity.persistentProperties`) of row `key`, calling `body` with each
    /// column's position in `columns` and its value; calls nothing when the row is gone.
    /// - Throws: the store's error when the read fails.
    func readColumns(
        _ columns: [Int], ofRow key: Int64, in entity: Schema.Entity,
        _ body: (_ offset: Int, _ value: StoredValue) -> Void) throws
    /// The primary keys of the models related to row `key` through `relationship` when the relationship is
    /// stored elsewhere than in the row (an inverse foreign key or a join table), in primary-key order.
    /// - Throws: the store's error when the read fails.
    func relatedKeys(of key: Int64, through relationship: Schema.RelationshipInfo) throws -> [Int64]
}

extension ModelBackingDataStore {
    package func storeIdentifier(for entity: Schema.Entity) -> String { identifier }
}
