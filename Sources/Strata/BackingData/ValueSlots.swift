/// A model's property values in place, in the form ``ModelBackingData`` keeps them in its tail: a view, like a
/// buffer pointer, that owns nothing.
///
/// Each property has a 16-byte slot holding its value's payload — an `Int64`, a `Double`, a `String` or a
/// `[UInt8]` — and a tag byte saying which of ``StoredValue``'s cases it is; the tags follow the slots. A
/// `StoredValue` takes 24 bytes (a 16-byte `String` and its case, aligned); a slot and its tag take 17, and a new
/// model's values are all `NULL` once its tags are cleared, without a store per value.
///
/// Reading a value (``subscript(_:)``) builds the `StoredValue` from the tag and the payload; code that inlines it
/// and asks for one case reads only that payload. Every write goes through ``initialize(_:to:)`` (over a `NULL`)
/// or the subscript's setter, which destroys the old payload first: text and blobs own memory, the other cases
/// don't.
@usableFromInline
package struct ValueSlots: RandomAccessCollection {
    /// The first slot; the tags start `count` slots after it.
    @usableFromInline let base: UnsafeMutableRawPointer
    /// The number of values.
    @usableFromInline let valueCount: Int

    /// The view of `count` values whose first slot is at `base`.
    @inlinable init(base: UnsafeMutableRawPointer, count: Int) {
        self.base = base
        self.valueCount = count
    }

    /// The bytes of one value's slot.
    @inlinable static var slotSize: Int { 16 }

    /// How many 8-byte words the slots and tags of `count` values take.
    @inlinable static func wordCount(for count: Int) -> Int {
        2 * count + (count + 7) / 8
    }

    // The tags: `StoredValue`'s cases, `NULL` as 0 so that cleared memory reads as `NULL`.
    @inlinable static var nullTag: UInt8 { 0 }
    @inlinable static var integerTag: UInt8 { 1 }
    @inlinable static var realTag: UInt8 { 2 }
    @inlinable static var textTag: UInt8 { 3 }
    @inlinable static var blobTag: UInt8 { 4 }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { valueCount }

    /// The payload of value `index`.
    @inlinable func slot(_ index: Int) -> UnsafeMutableRawPointer {
        base + index &* Self.slotSize
    }

    /// The tag of value `index`.
    @inlinable func tag(_ index: Int) -> UInt8 {
        base.load(fromByteOffset: valueCount &* Self.slotSize &+ index, as: UInt8.self)
    }

    @inlinable func setTag(_ tag: UInt8, at index: Int) {
        base.storeBytes(of: tag, toByteOffset: valueCount &* Self.slotSize &+ index, as: UInt8.self)
    }

    /// Sets every value to `NULL` without destroying any: for memory just allocated, whose payloads hold nothing.
    @inlinable func initializeToNull() {
        // A word at a time: the tags are few, and `initializeMemory(as:repeating:count:)` calls `memset`.
        let tags = base + valueCount &* Self.slotSize
        var offset = 0
        while offset < valueCount {
            tags.storeBytes(of: 0, toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
    }

    /// The value at `index`; setting it destroys the old value first.
    ///
    /// Every index Strata passes is a property index of the values' entity, and the values hold one per property
    /// from the start, so the bounds checks are unreachable from user data; out of range, an access would be
    /// outside the allocation.
    @inlinable package subscript(index: Int) -> StoredValue {
        // Always inlined: a typed read (`String(storedValue:)` of it) then tests one tag and loads one payload.
        @inline(__always) get {
            precondition(index >= 0 && index < valueCount, "Strata: value \(index) of \(valueCount) out of range")
            return value(uncheckedAt: index)
        }
        nonmutating set {
            precondition(index >= 0 && index < valueCount, "Strata: value \(index) of \(valueCount) out of range")
            destroy(index)
            initialize(index, to: newValue)
        }
    }

    /// The value at `index`, which the caller has checked is in range.
    @inlinable @inline(__always) package func value(uncheckedAt index: Int) -> StoredValue {
        let slot = slot(index)
        switch tag(index) {
        case Self.integerTag: return .integer(slot.load(as: Int64.self))
        case Self.realTag: return .real(slot.load(as: Double.self))
        case Self.textTag: return .text(slot.load(as: String.self))
        case Self.blobTag: return .blob(slot.load(as: [UInt8].self))
        default: return .null
        }
    }

    /// Whether value `index` is `NULL`, without reading its payload.
    @inlinable package func isNull(_ index: Int) -> Bool {
        precondition(index >= 0 && index < valueCount, "Strata: value \(index) of \(valueCount) out of range")
        return tag(index) == Self.nullTag
    }

    /// Whether value `index`, which the caller has checked is in range, is `NULL`.
    @inlinable @inline(__always) package func isNull(uncheckedAt index: Int) -> Bool {
        tag(index) == Self.nullTag
    }

    /// Puts `value` at `index`, which holds `NULL` (owning nothing, so nothing is destroyed). The caller checks the
    /// index.
    @inlinable package func initialize(_ index: Int, to value: StoredValue) {
        let slot = slot(index)
        switch value {
        case .null:
            setTag(Self.nullTag, at: index)
        case .integer(let integer):
            slot.storeBytes(of: integer, as: Int64.self)
            setTag(Self.integerTag, at: index)
        case .real(let real):
            slot.storeBytes(of: real, as: Double.self)
            setTag(Self.realTag, at: index)
        case .text(let text):
            slot.initializeMemory(as: String.self, to: text)
            setTag(Self.textTag, at: index)
        case .blob(let bytes):
            slot.initializeMemory(as: [UInt8].self, to: bytes)
            setTag(Self.blobTag, at: index)
        }
    }

    /// Destroys value `index`'s payload, if it owns memory, and leaves `NULL` there. The caller checks the index.
    @inlinable package func destroy(_ index: Int) {
        switch tag(index) {
        case Self.textTag: slot(index).assumingMemoryBound(to: String.self).deinitialize(count: 1)
        case Self.blobTag: slot(index).assumingMemoryBound(to: [UInt8].self).deinitialize(count: 1)
        default: break
        }
        setTag(Self.nullTag, at: index)
    }

    /// Destroys every value's payload: what the owner of the memory calls before freeing it.
    @inlinable func destroyAll() {
        for index in 0..<valueCount { destroy(index) }
    }
}
