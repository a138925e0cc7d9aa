/// A model's property values in stored form, by property index: a copy-on-write array of ``StoredValue``.
///
/// It behaves like `ContiguousArray<StoredValue>` but keeps its elements in a buffer class of its own. Making a
/// `ContiguousArray` of a type from another module asks the runtime for the generic storage class's metadata on
/// every allocation — more than the allocation itself costs, and fetches make one per row. This buffer's class is
/// not generic, so its metadata is looked up once.
///
/// Sendable as `ContiguousArray` is: a value changes its buffer only when it holds the only reference to it.
@usableFromInline
package struct StoredValues: RandomAccessCollection, MutableCollection, Equatable, @unchecked Sendable {
    @usableFromInline var buffer: Buffer

    /// Holds the count in its header and the values in its tail.
    ///
    /// Read through pointers only: `ManagedBuffer.header` is a class property, and code inlined from it here gets
    /// a dynamic exclusivity check on every access — on every property read of every model.
    @usableFromInline
    final class Buffer: ManagedBuffer<Int, StoredValue> {
        /// A buffer of `count` values, all `value`, with room for `capacity`.
        @usableFromInline
        static func make(repeating value: StoredValue, count: Int, capacity: Int) -> Buffer {
            let buffer = unsafeDowncast(create(minimumCapacity: capacity) { _ in count }, to: Buffer.self)
            buffer.withUnsafeMutablePointerToElements { elements in
                if case .null = value {
                    // Plain stores: `initialize(repeating:)` copies the value through the enum's outlined copy,
                    // a call per element, and fetches make a buffer of NULLs for every row.
                    for index in 0..<count { (elements + index).initialize(to: .null) }
                } else {
                    elements.initialize(repeating: value, count: count)
                }
            }
            return buffer
        }

        /// A buffer holding copies of `source`'s values, with room for `capacity` (at least `source.count`).
        @usableFromInline
        static func make(copying source: UnsafeBufferPointer<StoredValue>, capacity: Int) -> Buffer {
            let buffer = unsafeDowncast(create(minimumCapacity: capacity) { _ in source.count }, to: Buffer.self)
            if let values = source.baseAddress {
                buffer.withUnsafeMutablePointerToElements { $0.initialize(from: values, count: source.count) }
            }
            return buffer
        }

        deinit {
            // Only text and blobs own memory. `deinitialize(count:)` would call the enum's generic destroy for
            // every value, which was a fifth of freeing a model.
            withUnsafeMutablePointers { count, values in
                for index in 0..<count.pointee {
                    switch values[index] {
                    case .null, .integer, .real: continue
                    case .text, .blob: (values + index).deinitialize(count: 1)
                    }
                }
            }
        }
    }

    /// `count` values, all `value`.
    @inlinable
    package init(repeating value: StoredValue, count: Int) {
        buffer = .make(repeating: value, count: count, capacity: count)
    }

    /// No values. Shares one empty buffer, so it allocates nothing.
    package init() {
        buffer = Self.emptyBuffer
    }

    /// The buffer of every empty value; never changed, since a change first copies a shared buffer.
    private nonisolated(unsafe) static let emptyBuffer = Buffer.make(repeating: .null, count: 0, capacity: 0)

    /// The given values, in order.
    package init(_ values: some Sequence<StoredValue>) {
        let array = ContiguousArray(values)
        buffer = array.isEmpty ? Self.emptyBuffer : array.withUnsafeBufferPointer { .make(copying: $0, capacity: $0.count) }
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { count }
    @inlinable package var count: Int { buffer.withUnsafeMutablePointerToHeader { $0.pointee } }

    /// The value at `position`.
    ///
    /// Bounds-checked like `Array`'s subscript, and as unreachable from user data: every index Strata passes is a
    /// property index of the model's entity, and a model's values hold one per property (made with the entity's
    /// property count, or grown to the index before a write). Out of range, the read would be out of the buffer.
    @inlinable
    package subscript(position: Int) -> StoredValue {
        get {
            precondition(position >= 0 && position < count, "StoredValues: index \(position) out of range")
            return buffer.withUnsafeMutablePointerToElements { $0[position] }
        }
        set {
            precondition(position >= 0 && position < count, "StoredValues: index \(position) out of range")
            makeUnique()
            buffer.withUnsafeMutablePointerToElements { ($0 + position).replaceStoredValue(with: newValue) }
        }
    }

    /// Adds `value` at the end.
    @usableFromInline
    package mutating func append(_ value: StoredValue) {
        let count = self.count
        if !isKnownUniquelyReferenced(&buffer) || buffer.capacity == count {
            reallocate(capacity: Swift.max(count * 2, count + 1))
        }
        buffer.withUnsafeMutablePointers { header, values in
            (values + header.pointee).initialize(to: value)
            header.pointee += 1
        }
    }

    /// Calls `body` with the values in place.
    @inlinable
    package func withUnsafeBufferPointer<Result>(_ body: (UnsafeBufferPointer<StoredValue>) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { count, values in
            try body(UnsafeBufferPointer(start: values, count: count.pointee))
        }
    }

    /// Calls `body` with the values in place, to change them; copies them first if another value shares them.
    @inlinable
    package mutating func withUnsafeMutableBufferPointer<Result>(
        _ body: (UnsafeMutableBufferPointer<StoredValue>) throws -> Result
    ) rethrows -> Result {
        makeUnique()
        return try buffer.withUnsafeMutablePointers { count, values in
            try body(UnsafeMutableBufferPointer(start: values, count: count.pointee))
        }
    }

    /// Whether both hold the same values; `true` at once when they share their storage.
    @inlinable
    package static func == (lhs: StoredValues, rhs: StoredValues) -> Bool {
        if lhs.buffer === rhs.buffer { return true }
        return lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in left.elementsEqual(right) }
        }
    }

    /// Copies the values into a buffer of their own if another value shares them.
    @inlinable
    mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&buffer) { reallocate(capacity: count) }
    }

    @usableFromInline
    mutating func reallocate(capacity: Int) {
        buffer = withUnsafeBufferPointer { .make(copying: $0, capacity: capacity) }
    }
}

extension StoredValues: CustomStringConvertible {
    @usableFromInline
    package var description: String { "[" + map(\.description).joined(separator: ", ") + "]" }
}

extension UnsafeMutablePointer where Pointee == StoredValue {
    /// Puts `value` here in place of the value this points to. A NULL owns nothing, so it is overwritten without
    /// being destroyed: assigning would call the enum's outlined destroy once per value of every row read and of
    /// every new model's initial values.
    @inlinable
    package func replaceStoredValue(with value: StoredValue) {
        if case .null = pointee {
            initialize(to: value)
        } else {
            pointee = value
        }
    }
}
