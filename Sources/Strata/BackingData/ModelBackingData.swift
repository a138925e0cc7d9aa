/// Where a model keeps its property values (in stored form) and its persistence state.
///
/// The `@Model` macro routes every persistent property through this object, so reads are observed and writes
/// are tracked. You don't use it directly.
///
/// One allocation holds everything: the bookkeeping in the buffer's header (``Fields``) and the values, one per
/// persistent property, in its tail. A fetch makes one of these per row and `enumerate` frees them page by page,
/// so a separate values buffer would be a second allocation, a second free and a second cache line per model.
public final class ModelBackingData: ManagedBuffer<ModelBackingData.Fields, StoredValue> {
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
    public struct Fields {
        /// The number of values in the tail: one per persistent property of the model.
        @usableFromInline let valueCount: Int
        /// Indexes of properties not loaded yet (`propertiesToFetch`); `nil` when every property is loaded.
        // Next to the count, so a property read, which checks both, finds them in one cache line.
        @usableFromInline var unloadedProperties: Set<Int>?
        /// Counts the writes to the values, so live results see a change without keeping a copy of the values.
        @usableFromInline var valuesVersion: UInt64 = 0
        /// Decoded values of properties whose decoding is costly (JSON, raw values), by property index.
        @usableFromInline var decodedValues = [Int: Any]()
        /// The saved value of every property changed since the last save, by property index.
        @usableFromInline var savedValues = SavedValues()
        /// The shared weak reference to the model's context (see ``ModelBackingData/context``).
        @usableFromInline var contextReference: ModelContextReference?
        /// The row's version (`Z_OPT`) when the model's values were read or last saved: a save of a change or a
        /// delete checks it, so a row another writer changed meanwhile is a merge conflict, not a lost update.
        @usableFromInline var rowVersion: Int64 = 0
        /// The row's primary key, once the model is backed by a row.
        @usableFromInline var primaryKey: Int64?
        // After `primaryKey`, so it takes the byte after the optional's tag instead of a padded word.
        @usableFromInline var state: State = .detached
        /// The store holding the row, once the model is backed by a row.
        var store: (any ModelBackingDataStore)?
        /// The model's entity, once known to a context.
        @usableFromInline var entity: Schema.Entity?
        /// What most models never need, made on first use (see ``ModelBackingData/SideState``).
        @usableFromInline var sideState: SideState?

        init(valueCount: Int) {
            self.valueCount = valueCount
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

    /// The first value, in place; there are `fields.pointee.valueCount`. Valid while the backing data lives.
    @inlinable var valuesBase: UnsafeMutablePointer<StoredValue> {
        withUnsafeMutablePointerToElements { $0 }
    }

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
    @inlinable package var savedValues: SavedValues {
        get { fields.pointee.savedValues }
        _modify { yield &fields.pointee.savedValues }
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
        get { fields.pointee.primaryKey }
        set { fields.pointee.primaryKey = newValue }
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
    /// The store holding the row, once the model is backed by a row.
    package var store: (any ModelBackingDataStore)? {
        get { fields.pointee.store }
        set { fields.pointee.store = newValue }
    }
    /// The model's entity, once known to a context.
    @inlinable package var entity: Schema.Entity? {
        get { fields.pointee.entity }
        set { fields.pointee.entity = newValue }
    }
    /// What most models never need — relationship bookkeeping, encoding failures, a temporary identifier —
    /// made on first use, so a fetched model is smaller and quicker to make and free.
    @inlinable var sideState: SideState? {
        get { fields.pointee.sideState }
        set { fields.pointee.sideState = newValue }
    }

    /// The state kept in `sideState`.
    @usableFromInline
    final class SideState {
        @usableFromInline var encodingFailures: [Int: any Error] = [:]
        var temporaryIdentifier: PersistentIdentifier?
        /// Whether the model stands in for one `ModelContext.model(for:)` could not find: it is never inserted.
        var isLookupPlaceholder = false
        var relationshipTargets = RelationshipTargets()
        var changedRelationships: Set<Int> = []
        var joinAdditions: [Int: [any PersistentModel]] = [:]
        var joinRemovals: [Int: [any PersistentModel]] = [:]
        /// What unread to-many relationships gained and lost through their inverses, by property index.
        var pendingToManyChanges: [Int: PendingToManyChanges] = [:]
        /// Whether an `@Attribute(.ephemeral)` property was assigned since the last save.
        var hasEphemeralChanges = false

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
    private var temporaryIdentifier: PersistentIdentifier? {
        get { sideState?.temporaryIdentifier }
        set { ensuredSideState.temporaryIdentifier = newValue }
    }
    /// The temporary identifier the model was given before its first save, if anyone asked for one.
    package var issuedTemporaryIdentifier: PersistentIdentifier? { sideState?.temporaryIdentifier }
    /// Gives a model that has no row the temporary identifier it stands for.
    package func adoptTemporaryIdentifier(_ identifier: PersistentIdentifier) {
        temporaryIdentifier = identifier
    }
    /// Whether the model stands in for one `ModelContext.model(for:)` could not find (see `SideState`).
    package var isLookupPlaceholder: Bool {
        get { sideState?.isLookupPlaceholder ?? false }
        set { ensuredSideState.isLookupPlaceholder = newValue }
    }
    /// The related models of each relationship read or assigned so far, by property index (0 or 1 for to-one).
    package var relationshipTargets: RelationshipTargets {
        get { sideState?.relationshipTargets ?? .init() }
        _modify { yield &ensuredSideState.relationshipTargets }
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
    package static func make(propertyCount: Int) -> ModelBackingData {
        // A header of `nil`s: `create` copies the header it is given, and copying a non-`nil` one costs a call.
        let data = unsafeDowncast(
            create(minimumCapacity: propertyCount) { _ in Fields(valueCount: propertyCount) },
            to: ModelBackingData.self)
        data.withUnsafeMutablePointerToElements { values in
            // Plain stores: `initialize(repeating:)` copies through the enum's outlined copy, a call per value.
            for index in 0..<propertyCount { (values + index).initialize(to: .null) }
        }
        return data
    }

    /// Backing data for a row of `entity`: every value `NULL` until the row is read into ``values``.
    static func make(
        primaryKey: Int64, entity: Schema.Entity, store: any ModelBackingDataStore,
        context: (any ModelBackingDataContext)?
    ) -> ModelBackingData {
        let data = make(propertyCount: entity.persistentProperties.count)
        data.withUnsafeMutablePointerToHeader { fields in
            fields.pointee.primaryKey = primaryKey
            fields.pointee.state = .registered
            // Initialized over the header's `nil`s, which own nothing: assigning would first destroy them, and
            // destroying an optional existential is a runtime call.
            withUnsafeMutablePointer(to: &fields.pointee.store) { $0.initialize(to: store) }
            withUnsafeMutablePointer(to: &fields.pointee.entity) { $0.initialize(to: entity) }
            withUnsafeMutablePointer(to: &fields.pointee.contextReference) {
                $0.initialize(to: context?.modelReference)
            }
        }
        return data
    }

    deinit {
        // The header is a stored property, destroyed with the object; the values are raw tail memory. Only text
        // and blobs own memory: `deinitialize(count:)` would call the enum's generic destroy for every value.
        withUnsafeMutablePointers { fields, values in
            for index in 0..<fields.pointee.valueCount {
                switch values[index] {
                case .null, .integer, .real: continue
                case .text, .blob: (values + index).deinitialize(count: 1)
                }
            }
        }
    }

    /// The model's identifier; `entityName` (costly: it prints a type) is only asked for when no entity is known.
    package func identifier(entityName: @autoclosure () -> String) -> PersistentIdentifier {
        if let primaryKey {
            return PersistentIdentifier(
                entityName: entity?.name ?? entityName(),
                storeIdentifier: entity.flatMap { store?.storeIdentifier(for: $0) } ?? store?.identifier,
                key: .permanent(primaryKey))
        }
        if let temporaryIdentifier { return temporaryIdentifier }
        let identifier = PersistentIdentifier.temporary(entityName: entity?.name ?? entityName())
        temporaryIdentifier = identifier
        return identifier
    }

    package var hasChanges: Bool {
        switch state {
        case .inserted, .deleted: true
        case .registered:
            !savedValues.isEmpty || !encodingFailures.isEmpty || !changedRelationships.isEmpty
                || sideState?.hasEphemeralChanges == true
        case .detached, .deletedAndSaved: false
        }
    }

    package var isDeleted: Bool { state == .deleted || state == .deletedAndSaved }

    // MARK: - Property access (called by code the `@Model` macro generates)

    /// Stores a property's initial value while the model's initializer runs.
    @inlinable
    public func setInitialValue<Model, Value>(_ value: Value, for property: PersistentProperty<Model, Value>) {
        // A model made from a row already holds the row's values; declared defaults don't apply to it.
        guard state == .detached else { return }
        store(value, at: property.index, codec: property.codec)
    }

    /// Stores the initial value of a property stored as a ``StorableValue``, converting it in place.
    @inlinable
    public func setInitialValue<Model, Value: StorableValue>(
        _ value: Value, for property: PersistentProperty<Model, Value>
    ) {
        guard state == .detached else { return }
        guard property.codec.usesStorableForm else { return store(value, at: property.index, codec: property.codec) }
        store(value.storedValue, at: property.index)
    }

    /// Stores the initial value of an optional property stored as a ``StorableValue`` (`NULL` for `nil`).
    @inlinable
    public func setInitialValue<Model, Wrapped: StorableValue>(
        _ value: Wrapped?, for property: PersistentProperty<Model, Wrapped?>
    ) {
        guard state == .detached else { return }
        guard property.codec.usesStorableForm else { return store(value, at: property.index, codec: property.codec) }
        store(value?.storedValue ?? .null, at: property.index)
    }

    /// Reads a property's value.
    @inlinable
    public func getValue<Model, Value>(for property: PersistentProperty<Model, Value>) -> Value {
        decodeValue(for: property)
    }

    /// Reads a property stored as a ``StorableValue``, converting it in place.
    @inlinable
    public func getValue<Model, Value: StorableValue>(for property: PersistentProperty<Model, Value>) -> Value {
        // Specialized where the model declares the property, so the conversion is inlined: no call through the
        // codec, no copy of the stored value, no retain of the values around the read.
        if property.codec.usesStorableForm {
            let fields = self.fields
            let index = property.index
            if fields.pointee.unloadedProperties == nil, index < fields.pointee.valueCount,
                let value = Value(storedValue: valuesBase[index])
            {
                return value
            }
        }
        return decodeValue(for: property)
    }

    /// Reads an optional property stored as a ``StorableValue`` (`NULL` for `nil`), converting it in place.
    @inlinable
    public func getValue<Model, Wrapped: StorableValue>(for property: PersistentProperty<Model, Wrapped?>) -> Wrapped? {
        if property.codec.usesStorableForm {
            let fields = self.fields
            let index = property.index
            if fields.pointee.unloadedProperties == nil, index < fields.pointee.valueCount {
                if case .null = valuesBase[index] { return nil }
                if let value = Wrapped(storedValue: valuesBase[index]) { return value }
            }
        }
        return decodeValue(for: property)
    }

    /// Reads a property's value through its codec: loads unloaded properties, uses and fills the decoded-value
    /// cache, and stands in with a placeholder for a row that is gone.
    @inlinable
    func decodeValue<Model, Value>(for property: PersistentProperty<Model, Value>) -> Value {
        let index = property.index
        if unloadedProperties != nil { loadUnloadedProperties() }
        // Unwrap the lookup before casting: a missing entry cast straight to an optional `Value` would read as `nil`.
        if property.codec.cachesDecodedValue, let cached = decodedValues[index], let typed = cached as? Value {
            return typed
        }
        // Decoded in place: copying the stored value out first would retain and release its payload.
        let decoded = values.withUnsafeBufferPointer { values -> Value? in
            if index < values.count { return property.codec.decode(values[index]) }
            return property.codec.decode(.null)
        }
        if let value = decoded {
            if property.codec.cachesDecodedValue { decodedValues[index] = value }
            return value
        }
        let stored = index < values.count ? values[index] : .null
        // Rows are validated when loaded and assigned values are encoded from typed values; only a stand-in for
        // a row that is gone (`isDeleted`) gets here, and it reads as an empty value — for an enum without a
        // `0`/`1`/`""` raw value, or a Codable type with required fields, there is none to give.
        return placeholder(for: property, stored: stored)
    }

    /// The value a stand-in for a row that is gone reads: an empty value of its column's kind, the property's
    /// initial value, the first case of a `CaseIterable` enum, a `Decodable` value made of empty fields, or the
    /// all-zero value of a plain type (an enum's first case).
    @usableFromInline
    func placeholder<Model, Value>(for property: PersistentProperty<Model, Value>, stored: StoredValue) -> Value {
        for placeholder in property.codec.placeholders {
            if let value = property.codec.decode(placeholder) { return value }
        }
        if let entity, property.index < entity.defaultValues.count, let initial = entity.defaultValues[property.index],
            let value = property.codec.decode(initial)
        {
            return value
        }
        if let value = firstCase(of: Value.self) ?? PlaceholderDecoder.placeholder(of: Value.self)
            ?? zeroedPlainValue(of: Value.self)
        {
            return value
        }
        // Only a type holding references with no initial value, no empty stored form, no cases to list and no
        // decodable empty form (an enum with a string payload, a class read through a value transformer) gets
        // here, and only for a model whose row is gone.
        preconditionFailure(
            "Strata: \(property.name) of a deleted model holds \(stored), and \(Value.self) has no empty value to "
                + "stand in with; check isDeleted before reading it")
    }

    /// Assigns a property's value, recording the change in the model's context.
    @inlinable
    public func setValue<Model: PersistentModel, Value>(
        _ value: Value, for property: PersistentProperty<Model, Value>, on model: Model
    ) {
        encodeValue(value, for: property, on: model)
    }

    /// Assigns a property stored as a ``StorableValue``, converting it in place.
    @inlinable
    public func setValue<Model: PersistentModel, Value: StorableValue>(
        _ value: Value, for property: PersistentProperty<Model, Value>, on model: Model
    ) {
        guard property.codec.usesStorableForm else { return encodeValue(value, for: property, on: model) }
        assign(value.storedValue, at: property.index, on: model)
    }

    /// Assigns an optional property stored as a ``StorableValue`` (`NULL` for `nil`), converting it in place.
    @inlinable
    public func setValue<Model: PersistentModel, Wrapped: StorableValue>(
        _ value: Wrapped?, for property: PersistentProperty<Model, Wrapped?>, on model: Model
    ) {
        guard property.codec.usesStorableForm else { return encodeValue(value, for: property, on: model) }
        assign(value?.storedValue ?? .null, at: property.index, on: model)
    }

    /// Assigns a property's value through its codec, keeping an encoding failure for `save()` to report.
    @inlinable
    func encodeValue<Model: PersistentModel, Value>(
        _ value: Value, for property: PersistentProperty<Model, Value>, on model: Model
    ) {
        let index = property.index
        if unloadedProperties != nil { loadUnloadedProperties() }
        let previous = index < values.count ? values[index] : .null
        store(value, at: index, codec: property.codec)
        let current = values[index]
        guard current != previous || encodingFailures[index] != nil else { return }
        recordChange(at: index, from: previous, to: current, on: model)
    }

    /// Stores `current`, a value that can't fail to encode, at `index` and records the change if it is one.
    @inlinable
    func assign<Model: PersistentModel>(_ current: StoredValue, at index: Int, on model: Model) {
        if unloadedProperties != nil { loadUnloadedProperties() }
        let previous = index < values.count ? values[index] : .null
        guard current != previous else { return }
        store(current, at: index)
        recordChange(at: index, from: previous, to: current, on: model)
    }

    /// Keeps the saved value of a property that changed from `previous` to `current`, and tells the context (and
    /// its undo manager, when it has one).
    @inlinable
    func recordChange<Model: PersistentModel>(
        at index: Int, from previous: StoredValue, to current: StoredValue, on model: Model
    ) {
        // A deleted model keeps its saved values too: inserted again, it saves its changes; rolled back, it reverts them.
        if state == .registered || state == .deleted { keepSavedValue(at: index, changedFrom: previous, to: current) }
        guard let context else { return }
        if context.recordsUndo { context.registerUndoOfValueChange(of: model, at: index, from: previous) }
        context.modelDidChange(model)
    }

    /// Records that an `@Attribute(.ephemeral)` property of `model` was assigned: the model has changes (and so
    /// has its context) until the next save or rollback, though the store never holds the value. Called by the
    /// setter `@Model` generates.
    public func ephemeralValueDidChange<Model: PersistentModel>(on model: Model) {
        guard state == .registered, let context else { return }
        ensuredSideState.hasEphemeralChanges = true
        context.modelDidChange(model)
    }

    /// Forgets that an `@Attribute(.ephemeral)` property was assigned: the model is being saved.
    package func forgetEphemeralChanges() {
        if let sideState, sideState.hasEphemeralChanges { sideState.hasEphemeralChanges = false }
    }

    /// Keeps the stored value of a registered model's property that changed from `previous` to `current`: the
    /// first change keeps `previous`; a change back to the stored value forgets it.
    @inlinable
    package func keepSavedValue(at index: Int, changedFrom previous: StoredValue, to current: StoredValue) {
        if let saved = savedValues[index] {
            if saved == current { savedValues[index] = nil }
        } else {
            savedValues[index] = previous
        }
    }

    /// Stores `stored`, the form of a value that can't fail to encode (so no failure is kept for `index`).
    @inlinable
    func store(_ stored: StoredValue, at index: Int) {
        values[index] = stored
    }

    @inlinable
    func store<Value>(_ value: Value, at index: Int, codec: ValueCodec<Value>) {
        do {
            values[index] = try codec.encode(value)
            if let sideState, !sideState.encodingFailures.isEmpty { sideState.encodingFailures[index] = nil }
        } catch {
            encodingFailures[index] = error
        }
        if codec.cachesDecodedValue { decodedValues[index] = value }
    }

    // MARK: - Bookkeeping for the context

    /// Reads the properties that `propertiesToFetch` left out, in one query.
    @usableFromInline
    package func loadUnloadedProperties() {
        guard let missing = unloadedProperties, let store, let entity, let primaryKey else {
            unloadedProperties = nil
            return
        }
        // A fault: fill in every fault of the entity the context holds, in one query.
        if missing.count == entity.columnPropertyIndexes.count, let context,
            context.fulfillFaults(of: entity, including: self)
        {
            return
        }
        let columns = missing.sorted()
        // A failed read leaves the values as they were; the row was validated when first fetched.
        try? store.readColumns(columns, ofRow: primaryKey, in: entity) { offset, value in
            let index = columns[offset]
            let property = entity.persistentProperties[index]
            if property.relationshipDestination != nil || property.accepts(value) { values[index] = value }
        }
        unloadedProperties = nil
    }

    /// Restores every changed property to its saved value.
    package func revertChanges() {
        for (index, saved) in savedValues { values[index] = saved }
        for index in savedValues.keys { decodedValues[index] = nil }
        // Reassigned relationships are read again from the store.
        for index in changedRelationships { relationshipTargets[index] = nil }
        savedValues.removeAll()
        if let sideState {
            sideState.hasEphemeralChanges = false
            sideState.encodingFailures.removeAll()
            sideState.changedRelationships.removeAll()
            sideState.joinAdditions.removeAll()
            sideState.joinRemovals.removeAll()
            sideState.pendingToManyChanges.removeAll()
        }
    }

    /// Forgets the saved values: the current values are now what the store holds.
    package func commitChanges() {
        // Each guarded: most models have nothing to forget, and clearing an empty collection still writes it.
        if !savedValues.isEmpty { savedValues.removeAll() }
        commitRelationshipChanges()
    }

    /// Forgets the relationship assignments: the store now holds them.
    package func commitRelationshipChanges() {
        guard let sideState else { return }
        if !sideState.changedRelationships.isEmpty { sideState.changedRelationships.removeAll() }
        if !sideState.joinAdditions.isEmpty { sideState.joinAdditions.removeAll() }
        if !sideState.joinRemovals.isEmpty { sideState.joinRemovals.removeAll() }
        if !sideState.pendingToManyChanges.isEmpty { sideState.pendingToManyChanges.removeAll() }
    }
}
