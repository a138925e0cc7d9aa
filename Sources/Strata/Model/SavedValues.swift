/// The saved (last stored) value of each property changed since the last save, by property index.
///
/// A map that keeps its first entry inline: most changes touch one property of a model, and a dictionary would
/// allocate storage on the model's first change and free it at the save — for every changed model.
@usableFromInline
package struct SavedValues: Sequence {
    // The value first: a 32-bit index fits in the value's padding, which keeps backing data within its size class.
    @usableFromInline var firstValue = StoredValue.null
    /// The inline entry's property index; negative when there is no inline entry.
    @usableFromInline var firstIndex: Int32 = -1
    /// The entries after the first.
    @usableFromInline var others = [Int: StoredValue]()

    /// An empty map.
    @inlinable package init() {}

    /// Whether no property has a saved value.
    @inlinable package var isEmpty: Bool { firstIndex < 0 && others.isEmpty }

    /// The number of properties with a saved value.
    package var count: Int { (firstIndex < 0 ? 0 : 1) + others.count }

    /// The indexes of the properties with a saved value, in no particular order.
    package var keys: [Int] { map(\.key) }

    /// The saved value of the property at `index`; assigning `nil` forgets it.
    ///
    /// The precondition is unreachable from user data: every index is a property index of the model's entity
    /// (small and non-negative), which is what lets the inline entry keep it in 32 bits.
    @inlinable package subscript(index: Int) -> StoredValue? {
        get {
            if index == Int(firstIndex) { return firstValue }
            return others.isEmpty ? nil : others[index]
        }
        set {
            precondition(index >= 0 && index <= Int(Int32.max), "SavedValues: property index \(index) out of range")
            if index == Int(firstIndex) {
                if let newValue {
                    firstValue = newValue
                } else {
                    firstIndex = -1
                    firstValue = .null
                }
            } else if let newValue, firstIndex < 0, others.isEmpty || others[index] == nil {
                firstIndex = Int32(index)
                firstValue = newValue
            } else {
                others[index] = newValue
            }
        }
    }

    /// Forgets every saved value.
    @inlinable package mutating func removeAll() {
        firstIndex = -1
        firstValue = .null
        if !others.isEmpty { others = [Int: StoredValue]() }
    }

    @usableFromInline package func makeIterator() -> Iterator {
        Iterator(first: firstIndex < 0 ? nil : (Int(firstIndex), firstValue), others: others.makeIterator())
    }

    /// Yields the inline entry, then the others.
    @usableFromInline package struct Iterator: IteratorProtocol {
        var first: (key: Int, value: StoredValue)?
        var others: [Int: StoredValue].Iterator

        @usableFromInline package mutating func next() -> (key: Int, value: StoredValue)? {
            if let entry = first {
                first = nil
                return entry
            }
            return others.next()
        }
    }
}
