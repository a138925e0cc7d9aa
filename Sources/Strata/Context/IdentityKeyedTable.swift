/// A table from an object's identity to a value, made for lookups on every relationship read and every model
/// change: a context's identity maps by entity hierarchy (`Schema.Entity.identityKey`), its changed models' positions.
///
/// Open addressing over a power-of-two array: a key's address, multiplied, picks its slot, and a lookup usually
/// compares one key. `Dictionary` hashes every lookup with SipHash, about 140 instructions — as much as the
/// identity map's own lookup of a row once the map is found — and rehashes every key as it grows. A key stays once
/// added and only its value comes and goes, so removal leaves no gap to mend: the keys are few and fixed (a
/// schema's hierarchies) or emptied together (a context's changed models, at each save).
package struct IdentityKeyedTable<Value> {
    /// The keys by slot; `nil` for a free slot. Empty until the first key, then a power of two at most half full.
    private var keys: [ObjectIdentifier?] = []
    /// The value of each slot's key, `nil` when it has none.
    private var slots: [Value?] = []
    /// How many slots hold a key.
    private var keyCount = 0

    /// An empty table.
    package init() {}

    /// The value for `key`; assigning `nil` removes it.
    ///
    /// The value is moved out of the table while it is changed in place, so a value with storage of its own (an
    /// `IdentityMap`) stays uniquely referenced and isn't copied on write.
    package subscript(key: ObjectIdentifier) -> Value? {
        get { slot(of: key).flatMap { slots[$0] } }
        _modify {
            let slot = slotAdding(key)
            var value: Value? = nil
            swap(&value, &slots[slot])
            defer { swap(&value, &slots[slot]) }
            yield &value
        }
    }

    /// The value for `key`, or `defaultValue()` when it has none; changed in place as ``subscript(_:)`` is.
    package subscript(key: ObjectIdentifier, default defaultValue: @autoclosure () -> Value) -> Value {
        get { self[key] ?? defaultValue() }
        _modify {
            let slot = slotAdding(key)
            var taken: Value? = nil
            swap(&taken, &slots[slot])
            var value = taken ?? defaultValue()
            defer { slots[slot] = value }
            yield &value
        }
    }

    /// Removes the value for `key` and returns it, if it had one.
    package mutating func removeValue(forKey key: ObjectIdentifier) -> Value? {
        guard let slot = slot(of: key) else { return nil }
        var value: Value? = nil
        swap(&value, &slots[slot])
        return value
    }

    /// Removes every key and value.
    package mutating func removeAll() {
        keys = []
        slots = []
        keyCount = 0
    }

    /// The values, in no particular order.
    package var values: some Sequence<Value> { slots.lazy.compactMap { $0 } }

    /// The keys that have a value, in no particular order.
    package var keysWithValues: [ObjectIdentifier] {
        zip(keys, slots).compactMap { key, value in value == nil ? nil : key }
    }

    // MARK: - Slots

    /// The slot of `key`, when it has one.
    @inline(__always) private func slot(of key: ObjectIdentifier) -> Int? {
        guard !keys.isEmpty else { return nil }
        let mask = keys.count &- 1
        var slot = Self.firstSlot(of: key, mask: mask)
        while let candidate = keys[slot] {
            if candidate == key { return slot }
            slot = (slot &+ 1) & mask
        }
        return nil
    }

    /// The slot of `key`, given one (growing the table) if it has none.
    private mutating func slotAdding(_ key: ObjectIdentifier) -> Int {
        if let slot = slot(of: key) { return slot }
        if (keyCount + 1) * 2 > keys.count { grow() }
        let mask = keys.count &- 1
        var slot = Self.firstSlot(of: key, mask: mask)
        while keys[slot] != nil { slot = (slot &+ 1) & mask }
        keys[slot] = key
        keyCount += 1
        return slot
    }

    /// Doubles the slots (eight at first) and places every key and value again.
    private mutating func grow() {
        let oldKeys = keys
        var oldSlots = slots
        let capacity = Swift.max(8, keys.count * 2)
        keys = Array(repeating: nil, count: capacity)
        slots = Array(repeating: nil, count: capacity)
        let mask = capacity &- 1
        for (position, key) in oldKeys.enumerated() {
            guard let key else { continue }
            var slot = Self.firstSlot(of: key, mask: mask)
            while keys[slot] != nil { slot = (slot &+ 1) & mask }
            keys[slot] = key
            swap(&slots[slot], &oldSlots[position])
        }
    }

    /// The slot a key's probe starts from: its address without the alignment bits, multiplied by the golden ratio
    /// so that objects allocated near each other spread out.
    @inline(__always) private static func firstSlot(of key: ObjectIdentifier, mask: Int) -> Int {
        let address = UInt(bitPattern: key) &>> 4
        return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) &>> 32) & mask
    }
}
