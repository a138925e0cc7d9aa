/// The models a context has registered for one entity, by primary key.
///
/// An open-addressing hash table with linear probing, made for the access pattern of fetches: primary keys are
/// integers, often consecutive, looked up and added once per fetched row. A multiplicative hash spreads runs of
/// eight consecutive keys over the slots and keeps each run together, so a lookup costs a multiplication and
/// usually one probe in a cache line already read; `Dictionary` would hash every key with SipHash and scatter
/// consecutive keys. Removal shifts the following entries back, so no tombstones build up.
package struct IdentityMap {
    /// The key in each slot, or `IdentityMap.emptySlot`; probing reads only this array.
    private var keys: [Int64] = []
    /// The model in each slot whose key isn't `emptySlot`.
    private var models: [(any PersistentModel)?] = []
    /// The model registered for the key that marks empty slots, kept aside.
    private var modelForEmptySlotKey: (any PersistentModel)?
    private static let emptySlot = Int64.min
    /// The number of registered models.
    package private(set) var count = 0
    /// `log2` of the slot count (0 while no slot is allocated).
    private var slotBits = 0

    /// Creates an empty map.
    package init() {}

    /// Whether no model is registered.
    package var isEmpty: Bool { count == 0 }

    /// The model registered for `key`; assigning `nil` removes it.
    package subscript(key: Int64) -> (any PersistentModel)? {
        get {
            if key == Self.emptySlot { return modelForEmptySlotKey }
            guard !keys.isEmpty else { return nil }
            let slot = find(key)
            return keys[slot] == key ? models[slot] : nil
        }
        set {
            if let newValue { insert(newValue, for: key) } else { removeValue(forKey: key) }
        }
    }

    /// Registers `model` for `key`, replacing any model registered for it.
    package mutating func insert(_ model: any PersistentModel, for key: Int64) {
        if key == Self.emptySlot {
            if modelForEmptySlotKey == nil { count += 1 }
            modelForEmptySlotKey = model
            return
        }
        if (count + 1) * 4 > keys.count * 3 { grow(toHold: count + 1) }
        let slot = find(key)
        if keys[slot] != key {
            count += 1
            keys[slot] = key
        }
        models[slot] = model
    }

    /// Removes and returns the model registered for `key`, if any.
    @discardableResult
    package mutating func removeValue(forKey key: Int64) -> (any PersistentModel)? {
        if key == Self.emptySlot {
            guard let removed = modelForEmptySlotKey else { return nil }
            modelForEmptySlotKey = nil
            count -= 1
            return removed
        }
        guard !keys.isEmpty else { return nil }
        var hole = find(key)
        guard keys[hole] == key, let removed = models[hole] else { return nil }
        keys[hole] = Self.emptySlot
        models[hole] = nil
        count -= 1
        // Shift back every following entry of the probe run whose home slot doesn't lie between the hole and it.
        let mask = keys.count - 1
        var next = (hole + 1) & mask
        while keys[next] != Self.emptySlot {
            let home = homeSlot(keys[next])
            let distanceFromHome = (next - home) & mask
            let distanceFromHole = (next - hole) & mask
            if distanceFromHome >= distanceFromHole {
                keys[hole] = keys[next]
                keys[next] = Self.emptySlot
                models.swapAt(hole, next)
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Makes room for `capacity` models without growing again.
    package mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 4 > keys.count * 3 { grow(toHold: capacity) }
    }

    /// The registered primary keys, in no particular order.
    package var primaryKeys: [Int64] { compactMapSlots { key, _ in key } }

    /// The registered models, in no particular order.
    package var registered: [any PersistentModel] { compactMapSlots { _, model in model } }

    /// The registered models `isIncluded` accepts, by primary key.
    package func filter(_ isIncluded: (any PersistentModel) -> Bool) -> [Int64: any PersistentModel] {
        var result: [Int64: any PersistentModel] = [:]
        for slot in keys.indices where keys[slot] != Self.emptySlot {
            if let model = models[slot], isIncluded(model) { result[keys[slot]] = model }
        }
        if let model = modelForEmptySlotKey, isIncluded(model) { result[Self.emptySlot] = model }
        return result
    }

    private func compactMapSlots<T>(_ transform: (Int64, any PersistentModel) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for slot in keys.indices where keys[slot] != Self.emptySlot {
            if let model = models[slot] { result.append(transform(keys[slot], model)) }
        }
        if let model = modelForEmptySlotKey { result.append(transform(Self.emptySlot, model)) }
        return result
    }

    // MARK: - Slots

    /// The first slot of `key`'s probe run: the key's run of eight is Fibonacci-hashed (times 2⁶⁴/φ, top bits)
    /// to a group of eight slots, and the key's low three bits pick the slot in it.
    private func homeSlot(_ key: Int64) -> Int {
        let bits = UInt64(bitPattern: key)
        let group = ((bits >> 3) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - slotBits + 3)
        return Int(truncatingIfNeeded: group << 3 | bits & 7)
    }

    /// The slot holding `key`, or the empty slot where it would go. Needs at least one empty slot.
    private func find(_ key: Int64) -> Int {
        keys.withUnsafeBufferPointer { keys in
            let mask = keys.count - 1
            var slot = homeSlot(key)
            while keys[slot] != key, keys[slot] != Self.emptySlot { slot = (slot + 1) & mask }
            return slot
        }
    }

    private mutating func grow(toHold capacity: Int) {
        var bits = Swift.max(slotBits, 4)
        while capacity * 4 > (1 << bits) * 3 { bits += 1 }
        var oldKeys: [Int64] = []
        var oldModels: [(any PersistentModel)?] = []
        swap(&oldKeys, &keys)
        swap(&oldModels, &models)
        slotBits = bits
        keys = Array(repeating: Self.emptySlot, count: 1 << bits)
        models = Array(repeating: nil, count: 1 << bits)
        for slot in oldKeys.indices where oldKeys[slot] != Self.emptySlot {
            let target = find(oldKeys[slot])
            keys[target] = oldKeys[slot]
            // Swapped, not copied: moving the models costs no retain or release.
            swap(&models[target], &oldModels[slot])
        }
    }
}
