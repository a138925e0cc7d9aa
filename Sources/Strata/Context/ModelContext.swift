import Foundation

/// Tracks models fetched from and inserted into a container's store, and saves their changes.
///
/// A context is not `Sendable`: use it from one isolation domain. `ModelContainer.mainContext` belongs to the
/// main actor; create others with `ModelContext(container)` (or use a `ModelActor`) and hand models between
/// them by `persistentModelID`.
///
/// Within one context the same row is always the same object (an identity map). Assigning a property marks the
/// model changed; `save()` writes only the changed columns, in one transaction.
///
/// ```swift
/// let context = ModelContext(container)
/// let book = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
/// context.insert(book)
/// book.title = "Dune Messiah"        // tracked
/// try context.save()
/// ```
public final class ModelContext {
    /// How the context refers to its container: the main context is owned by the container, so it refers to it
    /// weakly until the container hands it a successor to keep (see `MainContainerLink`).
    private enum ContainerReference {
        case owning(ModelContainer)
        case owned(MainContainerLink)
    }

    private let containerReference: ContainerReference
    /// What `container` gives once the main context's container is gone without a successor (a migration stage's
    /// container): a closed container over the same store, so using the context throws `StrataError.storeClosed`
    /// instead of trapping.
    private var releasedContainer: ModelContainer?
    package let store: any PersistentStore

    // The bookkeeping touched once per model opts out of dynamic exclusivity checks (a runtime call each): the
    // context is used from one isolation domain, and no access to these spans a call that reaches them again.
    /// The registered models (the identity map) and what is kept about them (see `ModelRegistry`).
    let registry = ModelRegistry()
    /// Models inserted since the last save, in insertion order. A model's `state` (`.inserted`) and `context`
    /// say whether it is here, so no index is kept.
    @exclusivity(unchecked) var insertedModels: [any PersistentModel] = []
    /// Registered models with changed properties, with their rows' keys.
    @exclusivity(unchecked) var changedModels = ChangedModels()
    /// Registered models deleted since the last save.
    @exclusivity(unchecked) var deletedModels: [ObjectIdentifier: any PersistentModel] = [:]
    /// `delete(model:where:)` calls since the last save.
    var pendingBatchDeletes: [StoreChanges.BatchDelete] = []
    /// By position in `pendingBatchDeletes`, the rows of models inserted again after that batch deleted them:
    /// the batch leaves them stored (see `ModelContext+Reinsertion.swift`).
    var batchDeleteKeptKeys: [Int: [Int64]] = [:]
    /// Classes of models inserted although they are not in the schema; the next save reports them.
    var unknownInsertions: [String] = []
    /// Identifiers of the placeholders `model(for:)` gave for models it could not find that were inserted, or
    /// related to an inserted model, since the last save; the next save reports them instead of storing them.
    var placeholderInsertions: [PersistentIdentifier] = []
    /// The permanent identifier of each model saved by this context whose temporary identifier was asked for before
    /// its save, by that temporary identifier: lookups by an identifier captured before the save find the model.
    var permanentIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:]
    /// The save autosave enqueued that hasn't run yet.
    @exclusivity(unchecked) var scheduledAutosave: ScheduledAutosave?
    /// Set while the main context saves its pending autosave as its container is released: the container is
    /// already gone, but its store is still open for this last save.
    var isSavingBeforeRelease = false
    /// The serial queue of the `ModelActor` owning this context, where its autosave and its merges of other
    /// contexts' saves run.
    var autosaveQueue: DispatchQueue? {
        didSet { unmergedChanges.mergeOn(autosaveQueue) }
    }
    /// The saves of the container's other contexts this context hasn't merged yet.
    lazy var unmergedChanges = UnmergedChangesInbox(for: self, isMainContext: isMainContext)
    /// The container's inboxes, kept to leave them when the context is released (the main context may outlive
    /// its container).
    let containerInboxes: UnmergedChangesInboxes
    /// The store's `eraseCount` when this context last read or wrote it (see `ModelContainer+Erase.swift`).
    var seenEraseCount = 0
    let isMainContext: Bool
    /// The identity of the context in the editing states custom stores see.
    let editingStateIdentifier = UUID()
    /// The reference to this context (and its store) that its models hold.
    @usableFromInline let modelReference: ModelContextReference

    /// The container the context belongs to.
    ///
    /// A context keeps its container alive, as in SwiftData: `let context = try ModelContainer(for: Item.self)
    /// .mainContext` is a working context, and the store closes once the context and the container are both gone.
    public var container: ModelContainer {
        switch containerReference {
        case .owning(let container): return container
        case .owned(let link):
            if let container = link.container { return container }
            if let releasedContainer { return releasedContainer }
            let closed = ModelContainer(schema: store.schema, store: store)
            releasedContainer = closed
            return closed
        }
    }

    /// The name stamped on the history transactions this context's saves record (`HistoryTransaction.author`),
    /// so readers of the history can tell who made a change (`"widget"`, `"sync"`); `nil` by default.
    public var author: String?
    /// The context's editing state, which custom stores' requests carry: the context's identity and `author`.
    public var editingState: EditingState {
        EditingState(id: editingStateIdentifier, author: author)
    }

    /// Whether pending changes are saved automatically, soon after they are made.
    ///
    /// `true` for `ModelContainer.mainContext`, whose changes are saved by a task enqueued on the main actor
    /// right after the first change: everything changed in the same synchronous stretch of main-actor code is
    /// saved together, as soon as the main actor is free. Other contexts default to `false`; turned on, a context
    /// used on the main thread saves the same way, a `ModelActor`'s context by a job on the actor after the
    /// current one, and any other context at `processPendingChanges()`.
    // Read by every change a model makes, so without a runtime access check (see the bookkeeping above).
    @exclusivity(unchecked) public var autosaveEnabled: Bool {
        didSet { if autosaveEnabled, hasChanges { scheduleAutosave() } }
    }

    /// What a save does when an inserted model repeats a unique value that is already stored, or when a changed
    /// or deleted model's row was saved by another context or process after this context read it (see
    /// ``MergePolicy``). Defaults to `.mergeByPropertyObjectTrump` (update the stored model and write the changed
    /// properties, as SwiftData does); `.error` makes such a save throw `StrataError.mergeConflict` instead.
    ///
    /// Read-modify-write that must not lose updates (a counter) uses `.error` and retries:
    /// ```swift
    /// while true {
    ///     let context = ModelContext(container)
    ///     context.mergePolicy = .error
    ///     guard let counter = try context.fetch(FetchDescriptor<Counter>()).first else { break }
    ///     counter.value += 1
    ///     do { try context.save(); break } catch StrataError.mergeConflict { continue }
    /// }
    /// ```
    public var mergePolicy: MergePolicy = .mergeByPropertyObjectTrump

    /// The undo manager that records the context's inserts, deletes, property and relationship changes, so
    /// `undo()` and `redo()` revert and reapply them (see `ModelContext+Undo`); `nil` (the default) records
    /// nothing. It can be the context's own or one the app shares. Set it to `nil` around large imports.
    ///
    /// ```swift
    /// container.mainContext.undoManager = UndoManager()
    /// ```
    // Read by every change a model makes, so without a runtime access check (see the bookkeeping above).
    @exclusivity(unchecked) public var undoManager: UndoManager?

    /// An error from the last automatic save, if it failed; cleared by the next successful save.
    public internal(set) var autosaveError: StrataError?

    /// An error from the last fault that could not be fulfilled: a model whose properties are read from the store
    /// when first used (a related model, or one fetched with `propertiesToFetch`) whose read failed, or whose row
    /// another context or process deleted. Set it to `nil` once handled.
    ///
    /// Reading a property can't throw, so such a model's properties read as empty values: after a failed read
    /// until a later read succeeds (each use tries again), and a save of the model throws the failure rather than
    /// write what it could not read; after its row is gone for good, and the model reads as deleted (`isDeleted`,
    /// no `modelContext`). Each failure is also logged through ``StrataLog`` (category `fault`).
    public var faultError: StrataError?

    /// Creates a context for a container. Its autosave is off.
    public convenience init(_ container: ModelContainer) {
        self.init(container, isMainContext: false)
    }

    init(_ container: ModelContainer, isMainContext: Bool) {
        self.containerReference = isMainContext ? .owned(MainContainerLink(container)) : .owning(container)
        self.store = container.store
        self.modelReference = ModelContextReference(store: container.store)
        self.seenEraseCount = container.store.eraseCount
        self.isMainContext = isMainContext
        self.autosaveEnabled = isMainContext
        self.containerInboxes = container.unmergedChanges
        modelReference.context = self
        containerInboxes.register(unmergedChanges, of: ObjectIdentifier(self))
    }

    deinit {
        containerInboxes.unregister(ObjectIdentifier(self))
        // Models that hold each other would otherwise outlive the context, and keep its store open.
        releaseRelationshipLinks()
    }

    /// Throws when this is the main context of a released container that left it no successor (a migration
    /// stage's): it no longer reads or saves.
    func checkContainerIsAlive() throws {
        if !isSavingBeforeRelease, case .owned(let link) = containerReference, link.container == nil {
            throw StrataError.storeClosed(path: store.identifier)
        }
    }

    /// Gives the main context the container that replaces its released one, to keep alive from now on.
    func adoptSuccessor(_ successor: ModelContainer) {
        if case .owned(let link) = containerReference { link.adopt(successor) }
    }

    /// Whether the context has unsaved inserts, changes or deletes.
    public var hasChanges: Bool {
        !insertedModels.isEmpty || !changedModels.isEmpty || !deletedModels.isEmpty || !pendingBatchDeletes.isEmpty
            || !unknownInsertions.isEmpty || !placeholderInsertions.isEmpty
    }

    /// The models inserted since the last save, in insertion order.
    public var insertedModelsArray: [any PersistentModel] {
        insertedModels
    }

    /// The registered models with unsaved property changes.
    public var changedModelsArray: [any PersistentModel] { Array(changedModels.values) }

    /// The models deleted since the last save.
    public var deletedModelsArray: [any PersistentModel] { Array(deletedModels.values) }

    /// The entity of a model class in this context's schema.
    /// - Throws: `StrataError.unknownEntity` when the class is not part of the container's schema.
    func entity<T: PersistentModel>(for type: T.Type) throws -> Schema.Entity {
        guard let entity = store.schema.entity(for: type) else {
            throw StrataError.unknownEntity(String(describing: type))
        }
        return entity
    }
}
