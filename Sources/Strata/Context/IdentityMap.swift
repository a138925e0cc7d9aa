/// The models a context has registered for one entity, by primary key.
///
/// An open-addressing hash table with linear probing, made for the access pattern of fetches: primary keys are
/// integers, often consecutive, looked up and added once per fetched row. A multiplicative hash spreads runs of
/// eight consecutive keys over the slots and keeps each run together, so a lookup costs a multiplication and
/// usually one probe in a cache line already read; `Dictionary` would hash every key with SipHash and scatter
/// consecutive keys. Removal shifts the following entries back, so no tombstones build up.
///
/// The slots live in raw memory: only occupied slots hold a model, so making room for more (a fetch of 100,000
/// rows grows the table fourteen times) moves the models without retaining them and never fills a new table with
/// `nil`s. The map is a value, copied on write like the standard collections.
package struct IdentityMap {
    /// The slots, shared between copies until one of them changes; `nil` until the first model.
    private var storage: Storage?
    /// The model registered for the key that marks empty slots, kept aside.
    private var modelForEmptySlotKey: (any PersistentModel)?
    /// The number of registered models.
    package private(set) var count = 0

    /// Creates an empty map.
    package init() {}

    /// Whether no model is registered.
    package var isEmpty: Bool { count == 0 }

    /// The model registered for `key`; assigning `nil` removes it.
    package subscript(key: Int64) -> (any PersistentModel)? {
        @inline(__always) get {
            if key == Storage.emptySlot { return modelForEmptySlotKey }
            guard let storage, let slot = storage.slot(of: key) else { return nil }
            return storage.models[slot]
        }
        set {
            if let newValue { insert(newValue, for: key) } else { removeValue(forKey: key) }
        }
    }

    /// Registers `model` for `key`, replacing any model registered for it.
    package mutating func insert(_ model: any PersistentModel, for key: Int64) {
        if key == Storage.emptySlot { return setModelForEmptySlotKey(model) }
        reserveCapacity(count + 1)
        place(model, for: key, in: uniqueStorage())
    }

    /// Registers every model of `entries` for its key, replacing models registered for the same keys, and
    /// empties `entries`. The models are moved, not copied: none is retained or released.
    package mutating func insert(movingFrom entries: inout [(key: Int64, model: any PersistentModel)]) {
        guard !entries.isEmpty else { return }
        reserveCapacity(count + entries.count)
        let storage = uniqueStorage()
        while let (key, model) = entries.popLast() {
            if key == Storage.emptySlot { setModelForEmptySlotKey(model) } else { place(model, for: key, in: storage) }
        }
    }

    private mutating func setModelForEmptySlotKey(_ model: any PersistentModel) {
        if modelForEmptySlotKey == nil { count += 1 }
        modelForEmptySlotKey = model
    }

    /// Puts `model` in `key`'s slot of `storage` (this map's, unshared, with a free slot).
    private mutating func place(_ model: consuming any PersistentModel, for key: Int64, in storage: Storage) {
        let slot = storage.find(key)
        if storage.keys[slot] == key {
            storage.models[slot] = model
        } else {
            storage.keys[slot] = key
            (storage.models + slot).initialize(to: model)
            count += 1
        }
    }

    /// Removes and returns the model registered for `key`, if any.
    @discardableResult
    package mutating func removeValue(forKey key: Int64) -> (any PersistentModel)? {
        if key == Storage.emptySlot {
            guard let removed = modelForEmptySlotKey else { return nil }
            modelForEmptySlotKey = nil
            count -= 1
            return removed
        }
        // No reference to the storage may be held here: it would make `uniqueStorage()` copy it.
        guard let slot = storage?.slot(of: key) else { return nil }
        let storage = uniqueStorage()
        var hole = slot // A copy keeps every entry in its slot.
        let removed = (storage.models + hole).move()
        storage.keys[hole] = Storage.emptySlot
        count -= 1
        // Shift back every following entry of the probe run whose home slot doesn't lie between the hole and it.
        let mask = storage.slotCount - 1
        var next = (hole + 1) & mask
        while storage.keys[next] != Storage.emptySlot {
            let distanceFromHome = (next - storage.homeSlot(storage.keys[next])) & mask
            let distanceFromHole = (next - hole) & mask
            if distanceFromHome >= distanceFromHole {
                storage.keys[hole] = storage.keys[next]
                storage.keys[next] = Storage.emptySlot
                (storage.models + hole).moveInitialize(from: storage.models + next, count: 1)
                hole = next
            }
            next = (next + 1) & mask
        }
        return removed
    }

    /// Removes every model; with `keepingCapacity`, the slots stay for as many models again.
    package mutating func removeAll(keepingCapacity: Bool = false) {
        modelForEmptySlotKey = nil
        count = 0
        // Asked before `storage` is bound to a local, which would be a second reference.
        let isUnique = isKnownUniquelyReferenced(&storage)
        guard keepingCapacity, let storage else {
            storage = nil
            return
        }
        if isUnique {
            storage.removeAllEntries()
        } else {
            self.storage = Storage(slotBits: storage.slotCount.trailingZeroBitCount)
        }
    }

    /// Makes room for `capacity` models without growing again.
    package mutating func reserveCapacity(_ capacity: Int) {
        let slotCount = storage?.slotCount ?? 0
        guard capacity * 4 > slotCount * 3 else { return }
        var bits = slotCount == 0 ? 4 : slotCount.trailingZeroBitCount
        while capacity * 4 > (1 << bits) * 3 { bits += 1 }
        let grown = Storage(slotBits: bits)
        // Asked before `storage` is bound to a local, which would be a second reference.
        let isUnique = isKnownUniquelyReferenced(&storage)
        if let storage {
            if isUnique { storage.moveEntries(into: grown) } else { storage.copyEntries(into: grown) }
        }
        storage = grown
    }

    /// Identifies the slots' memory, so tests can tell that a change didn't copy it.
    package var storageIdentifier: ObjectIdentifier? { storage.map(ObjectIdentifier.init) }

    /// The registered primary keys, in no particular order.
    package var primaryKeys: [Int64] { compactMapSlots { key, _ in key } }

    /// The registered models, in no particular order.
    package var registered: [any PersistentModel] { compactMapSlots { _, model in model } }

    /// Calls `body` with every registered model and its primary key, in no particular order.
    package func forEachModel(_ body: (Int64, any PersistentModel) -> Void) {
        storage?.forEachEntry(body)
        if let model = modelForEmptySlotKey { body(Storage.emptySlot, model) }
    }

    /// The registered models `isIncluded` accepts, by primary key.
    package func filter(_ isIncluded: (any PersistentModel) -> Bool) -> [Int64: any PersistentModel] {
        var result: [Int64: any PersistentModel] = [:]
        forEachModel { key, model in
            if isIncluded(model) { result[key] = model }
        }
        return result
    }

    private func compactMapSlots<T>(_ transform: (Int64, any PersistentModel) -> T) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        forEachModel { key, model in result.append(transform(key, model)) }
        return result
    }

    /// The storage, copied first if another map shares it. Needs storage (`reserveCapacity` makes it).
    private mutating func uniqueStorage() -> Storage {
        // Asked before `storage` is bound to a local, which would be a second reference.
        let isUnique = isKnownUniquelyReferenced(&storage)
        guard let storage else { preconditionFailure("IdentityMap: no storage to mutate") }
        if isUnique { return storage }
        let copy = storage.clone()
        self.storage = copy
        return copy
    }

    // MARK: - Slots

    /// A power-of-two number of slots in two raw buffers: keys (every slot, `emptySlot` where free) and models
    /// (initialized exactly where the key isn't `emptySlot`).
    private final class Storage {
        /// The key that marks a free slot.
        static let emptySlot = Int64.min

        let slotCount: Int
        /// `64 - log2(slotCount) + 3`: the shift that turns a hashed group number into one of `slotCount / 8`.
        private let groupShift: UInt64
        let keys: UnsafeMutablePointer<Int64>
        let models: UnsafeMutablePointer<any PersistentModel>

        init(slotBits: Int) {
            slotCount = 1 << slotBits
            groupShift = UInt64(64 - slotBits + 3)
            keys = .allocate(capacity: slotCount)
            keys.initialize(repeating: Self.emptySlot, count: slotCount)
            models = .allocate(capacity: slotCount)
        }

        deinit {
            forEachSlot { slot in (models + slot).deinitialize(count: 1) }
            keys.deallocate()
            models.deallocate()
        }

        /// The first slot of `key`'s probe run: the key's run of eight is Fibonacci-hashed (times 2⁶⁴/φ, top
        /// bits) to a group of eight slots, and the key's low three bits pick the slot in it.
        @inline(__always) func homeSlot(_ key: Int64) -> Int {
            let bits = UInt64(bitPattern: key)
            let group = ((bits >> 3) &* 0x9E37_79B9_7F4A_7C15) >> groupShift
            return Int(truncatingIfNeeded: group << 3 | bits & 7)
        }

        /// The slot holding `key`, or the free slot where it would go. Needs at least one free slot.
        @inline(__always) func find(_ key: Int64) -> Int {
            let mask = slotCount - 1
            var slot = homeSlot(key)
            while keys[slot] != key, keys[slot] != Self.emptySlot { slot = (slot + 1) & mask }
            return slot
        }

        /// The slot holding `key`, if any.
        @inline(__always) func slot(of key: Int64) -> Int? {
            let slot = find(key)
            return keys[slot] == key ? slot : nil
        }

        /// Moves every entry into `other` (larger, empty), leaving this storage empty.
        func moveEntries(into other: Storage) {
            for slot in 0..<slotCount where keys[slot] != Self.emptySlot {
                let target = other.find(keys[slot])
                other.keys[target] = keys[slot]
                (other.models + target).moveInitialize(from: models + slot, count: 1)
                keys[slot] = Self.emptySlot
            }
        }

        /// Releases every model and frees every slot.
        func removeAllEntries() {
            forEachSlot { slot in
                (models + slot).deinitialize(count: 1)
                keys[slot] = Self.emptySlot
            }
        }

        /// A storage of the same size with the same entries in the same slots.
        func clone() -> Storage {
            let copy = Storage(slotBits: slotCount.trailingZeroBitCount)
            copy.keys.update(from: keys, count: slotCount)
            forEachSlot { slot in (copy.models + slot).initialize(to: models[slot]) }
            return copy
        }

        /// Copies every entry into `other` (empty, larger), leaving this storage as it is.
        func copyEntries(into other: Storage) {
            forEachEntry { key, model in
                let target = other.find(key)
                other.keys[target] = key
                (other.models + target).initialize(to: model)
            }
        }

        func forEachEntry(_ body: (Int64, any PersistentModel) -> Void) {
            forEachSlot { slot in body(keys[slot], models[slot]) }
        }

        /// Calls `body` with every occupied slot.
        private func forEachSlot(_ body: (Int) -> Void) {
            for slot in 0..<slotCount where keys[slot] != Self.emptySlot { body(slot) }
        }
    }
}
