/// Where a model keeps its property values (in stored form) and its persistence state.
///
/// The `@Model` macro routes every persistent property through this object, so reads are observed and writes
/// are tracked. You don't use it directly.
///
/// One allocation holds everything: the bookkeeping in the buffer's header (``Fields``) and the values, one per
/// persistent property, in its tail (a 16-byte slot each and a tag byte each, as `ValueSlots` lays them out). A fetch makes one of these per row and `enumerate` frees them page by page,
/// so a separate values buffer would be a second allocation, a second free and a second cache line per model.
///
/// This file holds the storage: the layout, the pointers into it, making and freeing. The entry points the
/// macro's accessors call, and what they may assume, are in `ModelBackingData+MacroAccess`; loading a model's
/// unread properties in `ModelBackingData+Faulting`; change tracking in `ModelBackingData+Changes`.
public final class ModelBackingData: ManagedBuffer<ModelBackingData.Fields, UInt64> {
    /// Where a model is in its life.
    @usableFromInline
    package enum State: Equatable {
        /// Created, not inserted into any context.
        case detached
        /// Inserted into a context, not saved yet.
        case inserted
        /// Backed by a row in the store.
        case registered
        /// Deleted in its context; the row goes when the context saves.
        case deleted
        /// Its row was deleted by a save.
        case deletedAndSaved
    }

    /// The backing data's bookkeeping, kept in the buffer's header. Opaque outside Strata.
    ///
    /// Every model a fetch makes carries one, so it holds only what a model read and left unchanged needs (112
    /// bytes); what a change or a rarer use needs is in the side state, made on first use. The store is reached
    /// through the context reference, which every model of a context shares.
    public struct Fields {
        // The count, the state and whether there is a primary key share one word.
        /// The number of values in the tail: one per persistent property of the model.
        @usableFromInline let valueCount: Int32
        @usableFromInline var state: State = .detached
        /// Whether `primaryKeyValue` holds the row's primary key (see ``ModelBackingData/primaryKey``).
        @usableFromInline var hasPrimaryKey = false
        /// Whether `observationRegistrarStorage` holds the model's observation registrar, made by the first read of
        /// one of its properties (see `ModelBackingData+Observation`).
        @usableFromInline var hasObservationRegistrar = false
        /// Indexes of properties not loaded yet (`propertiesToFetch`); `nil` when every property is loaded.
        // Next to the count, so a property read, which checks both, finds them in one cache line.
        @usableFromInline var unloadedProperties: Set<Int>?
        /// Counts the writes to the values, so live results see a change without keeping a copy of the values.
        @usableFromInline var valuesVersion: UInt64 = 0
        /// Decoded values of properties whose decoding is costly (JSON, raw values), by property index.
        @usableFromInline var decodedValues = [Int: Any]()
        /// The shared weak reference to the model's context, and its store (see ``ModelBackingData/context``).
        @usableFromInline var contextReference: ModelContextReference?
        /// The row's version (`Z_OPT`) when the model's values were read or last saved: a save of a change or a
        /// delete checks it, so a row another writer changed meanwhile is a merge conflict, not a lost update.
        @usableFromInline var rowVersion: Int64 = 0
        /// The row's primary key when `hasPrimaryKey`; `0` otherwise.
        @usableFromInline var primaryKeyValue: Int64 = 0
        /// The model's entity, once known to a context.
        @usableFromInline var entity: Schema.Entity?
        /// The related models of each relationship read or assigned so far (see `relationshipTargets`). Here, not
        /// in `sideState`: a to-one read across a list stores a link in every model it reads, and a side-state
        /// object each would cost an allocation, its initialization and its free per model.
        var relationshipTargets = RelationshipTargets()
        /// What most models never need, made on first use (see ``ModelBackingData/SideState``).
        @usableFromInline var sideState: SideState?
        /// Where the model's `ObservationRegistrar` is kept once `hasObservationRegistrar`: in place when it fits a
        /// word, else the address of the memory holding it. A word, not the registrar's own type: that type is
        /// resilient, and a field of it would make every field's offset a runtime lookup (see
        /// `ModelBackingData+Observation`).
        @usableFromInline var observationRegistrarStorage: UInt = 0

        init(valueCount: Int) {
            self.valueCount = Int32(truncatingIfNeeded: valueCount)
        }
    }

    /// The header, in place.
    ///
    /// Reached through a pointer: `ManagedBuffer.header` is a class property, and code inlined from it gets a
    /// dynamic exclusivity check on every access — several per property read. Every access through this pointer
    /// is instantaneous (no `inout` access to a field spans a call that could reach the same model), which is
    /// what the checks would enforce. The pointer is valid while the backing data lives, which every caller,
    /// holding it, ensures.
    @inlinable var fields: UnsafeMutablePointer<Fields> {
        withUnsafeMutablePointerToHeader { $0 }
    }

    /// The model's values in place: one per persistent property, by property index, ``valueCount`` of them.
    ///
    /// The one way into the values: every read and write of them, in Strata and in code inlined from the macro's
    /// accessors, goes through this view (directly, through ``values``, or through `withUnsafeValues` and
    /// `withUnsafeMutableValues`), so where and how they are kept can change here and in `ValueSlots` alone.
    /// - Where they live: in this object's tail, after the header (``fields``); this object owns them, sets them
    ///   to `NULL` in `make(propertyCount:)` and destroys them in `deinit`.
    /// - How long the view is valid: while the backing data lives, which every caller, holding it, ensures; the
    ///   tail is never reallocated, so a view taken before a call stays valid after it. Don't keep it past the
    ///   holding reference.
    /// - Who may write: Strata's own code, never user code, from wherever the model is used (its context's actor,
    ///   or one thread at a time for a model in no context), with no other access to the same value in flight (no
    ///   access through the view spans a call that could reach the model). Every write moves
    ///   `Fields.valuesVersion`, so live results see it: `values`' subscript and `withUnsafeMutableValues` do;
    ///   `make`'s initialization and `deinit` are the only writes that don't.
    @inlinable var slots: ValueSlots {
        ValueSlots(base: UnsafeMutableRawPointer(withUnsafeMutablePointerToElements { $0 }), count: valueCount)
    }

    /// How many values ``slots`` holds: one per persistent property of the model, fixed at `make`.
    @inlinable var valueCount: Int { Int(fields.pointee.valueCount) }

    /// Indexes of properties not loaded yet (`propertiesToFetch`); `nil` when every property is loaded.
    @inlinable package var unloadedProperties: Set<Int>? {
        get { fields.pointee.unloadedProperties }
        _modify { yield &fields.pointee.unloadedProperties }
    }
    /// Decoded values of properties whose decoding is costly (JSON, raw values), by property index.
    @inlinable package var decodedValues: [Int: Any] {
        get { fields.pointee.decodedValues }
        _modify { yield &fields.pointee.decodedValues }
    }
    /// The saved value of every property changed since the last save, by property index.
    ///
    /// Kept in ``SideState``: a model that never changes holds none. Reading it doesn't make the side state;
    /// changing it does, so clear it with ``clearSavedValues()`` rather than through this property.
    @inlinable package var savedValues: SavedValues {
        get { sideState?.savedValues ?? SavedValues() }
        _modify { yield &ensuredSideState.savedValues }
    }
    /// Forgets every saved value, without making the side state of a model that has none.
    @inlinable package func clearSavedValues() {
        if let sideState, !sideState.savedValues.isEmpty { sideState.savedValues.removeAll() }
    }
    /// Whether a property changed since the last save; cheaper than `savedValues.isEmpty`, which copies them.
    @inlinable package var hasSavedValues: Bool {
        guard let sideState else { return false }
        return !sideState.savedValues.isEmpty
    }
    /// The shared weak reference to the model's context (see ``context``).
    @inlinable var contextReference: ModelContextReference? {
        get { fields.pointee.contextReference }
        set { fields.pointee.contextReference = newValue }
    }
    /// The context the model belongs to, while both live.
    @inlinable var context: (any ModelBackingDataContext)? {
        get { contextReference?.context }
        set { contextReference = newValue?.modelReference }
    }
    /// The row's primary key, once the model is backed by a row.
    @inlinable package var primaryKey: Int64? {
        get { fields.pointee.hasPrimaryKey ? fields.pointee.primaryKeyValue : nil }
        set {
            fields.pointee.hasPrimaryKey = newValue != nil
            fields.pointee.primaryKeyValue = newValue ?? 0
        }
    }
    /// The row's version (`Z_OPT`) the model's values were read at or last saved with.
    @inlinable package var rowVersion: Int64 {
        get { fields.pointee.rowVersion }
        set { fields.pointee.rowVersion = newValue }
    }
    /// Where the model is in its life.
    @inlinable package var state: State {
        get { fields.pointee.state }
        set { fields.pointee.state = newValue }
    }
    /// Whether the model was deleted, saved or not.
    package var isDeleted: Bool { state == .deleted || state == .deletedAndSaved }
    /// The store holding the row, once the model is backed by a row: its context's (see ``ModelContextReference``).
    package var store: (any ModelBackingDataStore)? {
        fields.pointee.hasPrimaryKey ? contextReference?.store : nil
    }
    /// The model's entity, once known to a context.
    @inlinable package var entity: Schema.Entity? {
        get { fields.pointee.entity }
        set { fields.pointee.entity = newValue }
    }
    /// What most models never need — relationship changes, encoding failures, a temporary identifier —
    /// made on first use, so a fetched model is smaller and quicker to make and free.
    @inlinable var sideState: SideState? {
        get { fields.pointee.sideState }
        set { fields.pointee.sideState = newValue }
    }

    /// The state kept in `sideState`.
    ///
    /// Made by a model's first change, so its collections start as the empty ones' initializers, which cost a
    /// store each, not as literals, which cost a call each. The fields a change or a save touches skip the
    /// runtime's exclusivity check, as the header's fields do (see ``fields``): they are reached only by the
    /// model's accessors and its context, and no access to one of them spans a call that could reach the same
    /// model.
    @usableFromInline
    final class SideState {
        /// The saved value of every property changed since the last save (see ``ModelBackingData/savedValues``).
        @exclusivity(unchecked) @usableFromInline var savedValues = SavedValues()
        @exclusivity(unchecked) @usableFromInline var encodingFailures = [Int: any Error]()
        var temporaryIdentifier: PersistentIdentifier?
        /// Whether the model stands in for one `ModelContext.model(for:)` could not find: it is never inserted.
        var isLookupPlaceholder = false
        @exclusivity(unchecked) var changedRelationships = Set<Int>()
        var joinAdditions = [Int: [any PersistentModel]]()
        var joinRemovals = [Int: [any PersistentModel]]()
        /// What unread to-many relationships gained and lost through their inverses, by property index.
        var pendingToManyChanges = [Int: PendingToManyChanges]()
        /// Whether an `@Attribute(.ephemeral)` property was assigned since the last save.
        @exclusivity(unchecked) var hasEphemeralChanges = false
        /// Why the last read of the model's unloaded properties failed, until one succeeds (see
        /// `ModelBackingData+Faulting`).
        var faultFailure: StrataError?

        @usableFromInline init() {}
    }

    /// `sideState`, made if needed.
    @usableFromInline var ensuredSideState: SideState {
        if let sideState { return sideState }
        let made = SideState()
        sideState = made
        return made
    }

    /// Errors met while encoding an assigned value; `save()` reports them.
    @usableFromInline package var encodingFailures: [Int: any Error] {
        get { sideState?.encodingFailures ?? .init() }
        _modify { yield &ensuredSideState.encodingFailures }
    }
    /// Whether the model stands in for one `ModelContext.model(for:)` could not find (see `SideState`).
    package var isLookupPlaceholder: Bool {
        get { sideState?.isLookupPlaceholder ?? false }
        set { ensuredSideState.isLookupPlaceholder = newValue }
    }
    /// The related models of each relationship read or assigned so far, by property index (0 or 1 for to-one).
    ///
    /// In the header, reached through its pointer: read on every relationship read, so never with a runtime
    /// exclusivity check, and changed only by the model's own accessors and its context, which call out to nothing
    /// while they hold it.
    package var relationshipTargets: RelationshipTargets {
        get { fields.pointee.relationshipTargets }
        _modify { yield &fields.pointee.relationshipTargets }
    }
    /// Relationships assigned since the last save, by property index.
    package var changedRelationships: Set<Int> {
        get { sideState?.changedRelationships ?? .init() }
        _modify { yield &ensuredSideState.changedRelationships }
    }
    /// Join-table rows to add and remove at the next save, by property index.
    package var joinAdditions: [Int: [any PersistentModel]] {
        get { sideState?.joinAdditions ?? .init() }
        _modify { yield &ensuredSideState.joinAdditions }
    }
    package var joinRemovals: [Int: [any PersistentModel]] {
        get { sideState?.joinRemovals ?? .init() }
        _modify { yield &ensuredSideState.joinRemovals }
    }
    /// What to-many relationships not read yet gained and lost through their inverses since the last save, by
    /// property index: applied to the stored models when each is read.
    var pendingToManyChanges: [Int: PendingToManyChanges] {
        get { sideState?.pendingToManyChanges ?? .init() }
        _modify { yield &ensuredSideState.pendingToManyChanges }
    }

    // MARK: - Making and freeing

    /// Backing data for a new model with `propertyCount` persistent properties, all `NULL` until set.
    @inline(__always)
    package static func make(propertyCount: Int) -> ModelBackingData {
        // A header of `nil`s: `create` copies the header it is given, and copying a non-`nil` one costs a call.
        let data = unsafeDowncast(
            create(minimumCapacity: ValueSlots.wordCount(for: propertyCount)) { _ in
                Fields(valueCount: propertyCount)
            },
            to: ModelBackingData.self)
        data.slots.initializeToNull()
        return data
    }

    /// Backing data for a row of `entity`: every value `NULL` until the row is read into ``values``.
    static func make(
        primaryKey: Int64, entity: Schema.Entity, store: any ModelBackingDataStore,
        context: (any ModelBackingDataContext)?
    ) -> ModelBackingData {
        make(
            primaryKey: primaryKey, entity: entity,
            contextReference: context?.modelReference ?? ModelContextReference(store: store))
    }

    /// Backing data for a row of `entity`, of the context `contextReference` refers to (a reference with no
    /// context for a row read outside any): what a fetch making a model per row passes, having asked the context
    /// for its reference once.
    @inline(__always)
    static func make(
        primaryKey: Int64, entity: Schema.Entity, contextReference: ModelContextReference
    ) -> ModelBackingData {
        let data = make(propertyCount: entity.persistentProperties.count)
        data.withUnsafeMutablePointerToHeader { fields in
            fields.pointee.primaryKeyValue = primaryKey
            fields.pointee.hasPrimaryKey = true
            fields.pointee.state = .registered
            // Initialized over the header's `nil`s, which own nothing: assigning would first destroy them, and
            // destroying an optional reference is a runtime call.
            withUnsafeMutablePointer(to: &fields.pointee.entity) { $0.initialize(to: entity) }
            withUnsafeMutablePointer(to: &fields.pointee.contextReference) {
                $0.initialize(to: contextReference)
            }
        }
        return data
    }

    deinit {
        // The header is a stored property, destroyed with the object; the values are raw tail memory, of which
        // only text and blobs own memory, and the registrar is kept in a word of it (see `+Observation`).
        slots.destroyAll()
        if fields.pointee.hasObservationRegistrar { destroyObservationRegistrar() }
    }
}
