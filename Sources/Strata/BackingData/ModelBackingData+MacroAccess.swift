// The contract between `@Model` and the backing data: the entry points the accessors the macro generates call,
// and what each side may assume of the other. The macro's output is compiled into the app, so this is an API as
// binding as any public one: an entry point's name, signature and meaning stay, and the `@inlinable` bodies and
// the `@usableFromInline` declarations they reach are part of every app's generated code (they are how a
// property read stays near a plain field read; see docs/internals/Fetching.md).
//
// What the generated code calls:
// - `forNewModel(_:propertyCount:)` or `forNewSubclassModel(_:propertyCount:)` (`+Handoff`, `+SubclassHandoff`)
//   as the initial value of the backing data's stored property, and `init(backingData:)` to adopt a given one;
// - `setInitialValue(_:for:)` from a property's `init` accessor, `getValue(for:)` from its getter,
//   `setValue(_:for:on:)` from its setter with `on: self`, here for values and in `+Relationships` for
//   relationships (one overload per shape: a value through its codec, a `StorableValue`, an optional one; to-one,
//   to-many);
// - `ephemeralValueDidChange(on:)` from the setter of an `@Attribute(.ephemeral)` property;
// - `access(_:keyPath:)` from every getter, before it reads, and `withMutation(of:keyPath:_:)` around every
//   setter's write (`+Observation`), and `observationRegistrar` from the model's `_$observationRegistrar`: the
//   model keeps no registrar of its own; its backing data makes one on the first read.
//
// What the generated code may assume:
// - `property.index` is in range: a backing data holds one value per persistent property of the model's entity
//   from the moment it is made, and the macro numbers the properties as the entity does (a subentity's after
//   its base's).
// - A read neither throws nor traps on stored data: a property not loaded yet (a fault, or left out by
//   `propertiesToFetch`) is loaded first (`+Faulting`, which reports a read that fails), and a model whose row
//   is gone, or whose read failed, reads a placeholder.
// - A write neither throws nor traps: the value's encoding failure is kept and `save()` throws it; the write
//   records the saved value, the undo action and the change in the model's context itself.
// - An initial value reaches only a new model: a model made from a row keeps the row's values.
// - The value entry points do no observation: the accessor wraps them in the backing data's `access` and
//   `withMutation`. `access` makes the model's registrar if it has none (whether a tracking scope is open can't be
//   asked, so every read makes it); `withMutation` calls the registrar only if one exists, since every observation
//   starts with a read: a write to a model nothing has read yet just writes.
//
// What the backing data assumes of the generated code:
// - The backing data lives as long as its model and is never replaced after the initializer, so the accessors
//   reach it through `Unmanaged._withUnsafeGuaranteedRef`, with no retain and release around each access.
// - `model` in `setValue(_:for:on:)` is the model that owns this backing data, and every call is made where the
//   model may be used (its context's isolation).
extension ModelBackingData {
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
    @inlinable @inline(__always)
    public func getValue<Model, Value: StorableValue>(for property: PersistentProperty<Model, Value>) -> Value {
        // Specialized where the model declares the property, so the conversion is inlined: no call through the
        // codec, no copy of the stored value, no retain of the values around the read.
        if property.codec.usesStorableForm {
            let fields = self.fields
            let index = property.index
            // `index` is a property index, never negative (see the contract above): the count is its only bound.
            if fields.pointee.unloadedProperties == nil, index < valueCount,
                let value = Value(storedValue: slots.value(uncheckedAt: index))
            {
                return value
            }
        }
        return decodeValue(for: property)
    }

    /// Reads an optional property stored as a ``StorableValue`` (`NULL` for `nil`), converting it in place.
    @inlinable @inline(__always)
    public func getValue<Model, Wrapped: StorableValue>(for property: PersistentProperty<Model, Wrapped?>) -> Wrapped? {
        if property.codec.usesStorableForm {
            let fields = self.fields
            let index = property.index
            if fields.pointee.unloadedProperties == nil, index < valueCount {
                let slots = self.slots
                if slots.isNull(uncheckedAt: index) { return nil }
                if let value = Wrapped(storedValue: slots.value(uncheckedAt: index)) { return value }
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
        let decoded = withUnsafeValues { values -> Value? in
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

    /// Keeps the stored value of a registered model's property that changed from `previous` to `current`: the
    /// first change keeps `previous`; a change back to the stored value forgets it.
    @inlinable
    package func keepSavedValue(at index: Int, changedFrom previous: StoredValue, to current: StoredValue) {
        // In the side state, made by the model's first change; looked up once, not per access.
        let sideState = ensuredSideState
        if let saved = sideState.savedValues[index] {
            if saved == current { sideState.savedValues[index] = nil }
        } else {
            sideState.savedValues[index] = previous
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
}
