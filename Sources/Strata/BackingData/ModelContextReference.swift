/// What a model's backing data tells, and asks of, the context its model belongs to. `ModelContext` implements
/// it, so the model layer names no context.
@usableFromInline
protocol ModelBackingDataContext: AnyObject {
    /// The reference the context's models share.
    var modelReference: ModelContextReference { get }
    /// One of `model`'s properties changed.
    func modelDidChange(_ model: some PersistentModel)
    /// `model`'s relationship `index` was assigned: `added` and `removed` are the related models it gained and lost.
    func relationshipDidChange(
        of model: some PersistentModel, at index: Int, added: [any PersistentModel],
        removed: [any PersistentModel])
    /// A relationship of `model` changed because an inverse relationship was assigned.
    func inverseRelationshipDidChange(of model: any PersistentModel)
    /// Inserts `model` (a model related to one of the context's models), with the models it references.
    func insertAny(_ model: any PersistentModel)
    /// Fills in every fault of `entity` the context holds, `data` among them, in one query; `false` when it can't.
    func fulfillFaults(of entity: Schema.Entity, including data: ModelBackingData) -> Bool
    /// Loads the properties at `columns` of `data`, which a fetch's `propertiesToFetch` left out, together with those
    /// of the context's other models of `entity` missing the same ones, in one query; `false` when `data`'s weren't
    /// loaded (no other model shares them, or the read failed), and `data` reads its own row.
    func loadMissingProperties(_ columns: [Int], of entity: Schema.Entity, including data: ModelBackingData) -> Bool
    /// A fault of the context could not be fulfilled: `error` says why, and with `rowIsGone` its row is no longer
    /// in the store (the model now reads as deleted).
    func faultCouldNotBeFulfilled(_ data: ModelBackingData, error: StrataError, rowIsGone: Bool)
    /// Loads the related models of relationship `index` of `data` from the store into its `relationshipTargets`;
    /// `false` when they can't be.
    func loadRelationship(at index: Int, of data: ModelBackingData) -> Bool
    /// Whether the context records its changes for undo (it has an undo manager).
    var recordsUndo: Bool { get }
    /// Records how to undo a property change of `model`: the value at `index` goes back to `previous`.
    func registerUndoOfValueChange(of model: some PersistentModel, at index: Int, from previous: StoredValue)
    /// Records how to undo a relationship change of `model`: relationship `index` goes back to `previous`.
    func registerUndoOfRelationshipChange(
        of model: any PersistentModel, at index: Int, from previous: [any PersistentModel])
}

/// The weak reference to a context that all of its models share, and the store their rows are in.
///
/// A model's backing data holds this object strongly rather than a weak reference of its own: retaining and
/// releasing one object costs less than forming and destroying a weak reference, for every model a fetch makes
/// and frees. When the context goes away, every model reads `nil` for it at once, as with weak references, and
/// still reaches its store through this object (its unread properties and relationships are read from there).
/// Keeping the store here rather than in each model's backing data saves every model the existential's 16 bytes.
@usableFromInline
final class ModelContextReference {
    /// Set once, as the context is made; read by every relationship read and change, without a runtime access check.
    @exclusivity(unchecked) @usableFromInline weak var context: (any ModelBackingDataContext)?
    /// The store holding the rows of the models that share this reference: their context's store, or, for a
    /// model made for a row outside any context, the store it was read from.
    let store: any ModelBackingDataStore

    init(store: any ModelBackingDataStore) {
        self.store = store
    }
}
