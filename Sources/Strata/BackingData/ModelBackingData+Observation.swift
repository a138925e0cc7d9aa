import Observation

// The model's observation registrar: kept by its backing data, made by the first read of one of the model's
// properties.
//
// `ObservationRegistrar()` makes two allocations, and freeing the model frees them again. Most models a fetch
// makes are never read (a to-many relationship only counted, models only deleted, the rows of a long list nobody
// scrolls to), so a model makes its registrar only when a getter reports a read (`access(_:keyPath:)`). Whether a
// `withObservationTracking` scope is open can't be asked, so every read makes it, observed or not. A write to a
// model without a registrar skips `withMutation`: every observation starts with a read, which would have made one,
// so nobody can be observing it.
//
// The registrar's type is resilient (its size is known only at run time): as a field of the header it would make
// the offset of every field after it a runtime lookup. So the header keeps it in a word of raw memory
// (`Fields.observationRegistrarStorage`), or, were the type ever larger than a word, the address of memory
// allocated for it. A method called on a value kept anywhere but in a `let` is called on a copy (Swift can't tell
// that the call leaves the memory alone), and a copy of a resilient value goes through its value witnesses, with a
// retain and a release: about 260 instructions a read. A read instead reaches the registrar through an `inout`
// access in place, which passes its address as it is: nothing else touches it during `access`, which only
// records the key path in the open tracking scope. `withMutation` runs the observers' `willSet`, which may read
// the model, so it calls a copy.
extension ModelBackingData {
    /// Whether a registrar fits in the header's word, where it is then kept in place.
    @inlinable @inline(__always) static var observationRegistrarFitsInWord: Bool {
        // A stride within the word's size bounds the alignment too, which never exceeds the stride.
        MemoryLayout<ObservationRegistrar>.stride <= MemoryLayout<UInt>.size
    }

    /// Whether the model's registrar was made: whether anything read one of its properties.
    @inlinable package var hasObservationRegistrar: Bool { fields.pointee.hasObservationRegistrar }

    /// The header's word the registrar is kept in (see `Fields.observationRegistrarStorage`). Valid while the
    /// backing data lives, as ``fields`` is.
    @inlinable @inline(__always) var observationRegistrarWord: UnsafeMutablePointer<UInt> {
        withUnsafeMutablePointer(to: &fields.pointee.observationRegistrarStorage) { $0 }
    }

    /// Where the registrar is; it holds one only while ``hasObservationRegistrar``.
    @inlinable @inline(__always) var observationRegistrarSlot: UnsafeMutablePointer<ObservationRegistrar> {
        let word = observationRegistrarWord
        if Self.observationRegistrarFitsInWord {
            return UnsafeMutableRawPointer(word).assumingMemoryBound(to: ObservationRegistrar.self)
        }
        return UnsafeMutablePointer(bitPattern: word.pointee).unsafelyUnwrapped
    }

    /// Makes the model's registrar; called only while it has none.
    @usableFromInline @inline(never)
    func makeObservationRegistrar() {
        let word = observationRegistrarWord
        if Self.observationRegistrarFitsInWord {
            UnsafeMutableRawPointer(word).initializeMemory(as: ObservationRegistrar.self, to: ObservationRegistrar())
        } else {
            let memory = UnsafeMutablePointer<ObservationRegistrar>.allocate(capacity: 1)
            memory.initialize(to: ObservationRegistrar())
            word.pointee = UInt(bitPattern: memory)
        }
        fields.pointee.hasObservationRegistrar = true
    }

    /// Frees the model's registrar; called by `deinit` when there is one.
    func destroyObservationRegistrar() {
        let slot = observationRegistrarSlot
        slot.deinitialize(count: 1)
        if !Self.observationRegistrarFitsInWord { slot.deallocate() }
        fields.pointee.hasObservationRegistrar = false
    }

    /// The registrar through which observers see the model's changes, made by this call if no read made it yet.
    /// What the generated `_$observationRegistrar` returns.
    public var observationRegistrar: ObservationRegistrar {
        if !fields.pointee.hasObservationRegistrar { makeObservationRegistrar() }
        return observationRegistrarSlot.pointee
    }

    /// Reports a read of `model`'s property at `keyPath` to the tracking scope open on this thread, if any, making
    /// the model's registrar if it has none. Called by the getters `@Model` generates, before they read the value.
    @inlinable @inline(__always)
    public func access<Model: Observable, Member>(_ model: Model, keyPath: KeyPath<Model, Member>) {
        if !fields.pointee.hasObservationRegistrar { makeObservationRegistrar() }
        Self.access(&observationRegistrarSlot.pointee, model, keyPath: keyPath)
    }

    /// `registrar.access(model, keyPath:)` through an `inout` access, so the registrar is used where it is kept,
    /// not copied out of it (see above).
    @inlinable @inline(__always)
    static func access<Model: Observable, Member>(
        _ registrar: inout ObservationRegistrar, _ model: Model, keyPath: KeyPath<Model, Member>
    ) {
        registrar.access(model, keyPath: keyPath)
    }

    /// Runs `mutation`, a write of `model`'s property at `keyPath`, between the observers' `willSet` and `didSet`
    /// when the model has a registrar; a model without one has no observers, and `mutation` just runs. Called by
    /// the setters `@Model` generates.
    @inlinable @inline(__always)
    public func withMutation<Model: Observable, Member, Result>(
        of model: Model, keyPath: KeyPath<Model, Member>, _ mutation: () throws -> Result
    ) rethrows -> Result {
        guard fields.pointee.hasObservationRegistrar else { return try mutation() }
        // A copy: the observers `willSet` calls may read the model, which moves the stored registrar.
        let registrar = observationRegistrarSlot.pointee
        return try registrar.withMutation(of: model, keyPath: keyPath, mutation)
    }
}
