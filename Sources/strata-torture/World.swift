/// The state a sequence of saves leaves in the store, computed in memory: what the checker compares the store with.
struct World {
    struct EntryState: Equatable {
        var batch: Int
        var payload: String
        var amount: Int
        var group: Int?
        /// Tag slots, ascending.
        var tags: [Int]
    }

    var entries: [Int: EntryState] = [:]
    var groups: [Int: String] = [:]
    var tags: [Int: String] = [:]
    /// Save number → the entry count its record holds.
    var records: [Int: Int] = [:]
    /// Live slots in ascending order (dictionary order differs between processes; these don't).
    private(set) var entrySlots: [Int] = []
    private(set) var groupSlots: [Int] = []
    private(set) var tagSlots: [Int] = []
    var nextSlot = 1
    /// How many saves made this state.
    var saves = 0

    /// Applies one operation of a save.
    mutating func apply(_ operation: Operation) {
        switch operation {
        case .insertGroup(let slot, let name):
            nextSlot = max(nextSlot, slot + 1)
            groups[slot] = name
            groupSlots.append(slot)
        case .insertTag(let slot, let name):
            nextSlot = max(nextSlot, slot + 1)
            tags[slot] = name
            tagSlots.append(slot)
        case .insertEntry(let slot, let state):
            nextSlot = max(nextSlot, slot + 1)
            entries[slot] = state
            entrySlots.append(slot)
        case .updateEntry(let slot, let batch, let payload, let amount):
            entries[slot]?.batch = batch
            entries[slot]?.payload = payload
            entries[slot]?.amount = amount
        case .setGroup(let slot, let group), .addToGroup(let slot, let group):
            entries[slot]?.group = group
        case .removeFromGroup(let slot, _):
            entries[slot]?.group = nil
        case .tag(let slot, let tag):
            if var entry = entries[slot], !entry.tags.contains(tag) {
                entry.tags.append(tag)
                entry.tags.sort()
                entries[slot] = entry
            }
        case .untag(let slot, let tag):
            entries[slot]?.tags.removeAll { $0 == tag }
        case .deleteEntry(let slot):
            entries[slot] = nil
            Self.remove(slot, from: &entrySlots)
        case .deleteGroup(let slot):
            groups[slot] = nil
            Self.remove(slot, from: &groupSlots)
            for key in entrySlots where entries[key]?.group == slot { entries[key]?.group = nil }
        case .record(let number, let count):
            records[number] = count
        }
    }

    private static func remove(_ slot: Int, from slots: inout [Int]) {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle] < slot { low = middle + 1 } else { high = middle }
        }
        if low < slots.count, slots[low] == slot { slots.remove(at: low) }
    }

    /// Whether both hold the same rows (slot counters and save counts aside).
    func hasSameRows(as other: World) -> Bool {
        entries == other.entries && groups == other.groups && tags == other.tags && records == other.records
    }

    /// A 64-bit FNV-1a digest of every row, in slot order.
    var digest: UInt64 {
        var hasher = Digest()
        for slot in entries.keys.sorted() {
            let entry = entries[slot]!
            hasher.add("e\(slot)|\(entry.batch)|\(entry.amount)|\(entry.group ?? -1)|\(entry.tags)|")
            hasher.add(entry.payload)
        }
        for slot in groups.keys.sorted() { hasher.add("g\(slot)|\(groups[slot]!)") }
        for slot in tags.keys.sorted() { hasher.add("t\(slot)|\(tags[slot]!)") }
        for number in records.keys.sorted() { hasher.add("r\(number)|\(records[number]!)") }
        return hasher.value
    }

    /// The state after saves `1...count` of the workload seeded with `seed`, and the digest after save `digestOf`
    /// (a digest reads every row, so only the one asked for is computed).
    static func replay(seed: UInt64, count: Int, digestOf: Int? = nil) -> (world: World, digest: UInt64?) {
        var world = World()
        var digest: UInt64?
        for number in stride(from: 1, through: count, by: 1) {
            for operation in SavePlan.operations(forSave: number, seed: seed, world: world) { world.apply(operation) }
            world.saves = number
            if number == digestOf { digest = world.digest }
        }
        return (world, digest)
    }
}

/// FNV-1a, 64 bits.
struct Digest {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ text: String) {
        for byte in text.utf8 {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01B3
        }
        value ^= 0xFF
        value = value &* 0x0000_0100_0000_01B3
    }
}
