/// One change a save makes, by slot (the models' unique `slot`).
enum Operation {
    case insertGroup(slot: Int, name: String)
    case insertTag(slot: Int, name: String)
    case insertEntry(slot: Int, World.EntryState)
    case updateEntry(slot: Int, batch: Int, payload: String, amount: Int)
    /// A to-one change made on the entry (`entry.group = …`).
    case setGroup(slot: Int, group: Int?)
    /// A to-many change made on the group (`group.entries.append(entry)`).
    case addToGroup(slot: Int, group: Int?)
    /// A to-many removal made on the group (`group.entries.removeAll { … }`).
    case removeFromGroup(slot: Int, group: Int)
    case tag(slot: Int, tag: Int)
    case untag(slot: Int, tag: Int)
    case deleteEntry(slot: Int)
    case deleteGroup(slot: Int)
    /// The save's record, always its last operation.
    case record(number: Int, entryCount: Int)
}

/// What save number `n` of a seeded workload does: a deterministic function of the seed, the number and the state.
enum SavePlan {
    static func operations(forSave number: Int, seed: UInt64, world start: World) -> [Operation] {
        var random = SplitMix(seed: seed &* 0x100_0000_01B3 &+ UInt64(number))
        var world = start
        var operations: [Operation] = []
        func add(_ operation: Operation) {
            operations.append(operation)
            world.apply(operation)
        }
        // Inserting moves `world.nextSlot` on.
        func newSlot() -> Int { world.nextSlot }
        // Sizes vary: most saves touch a few rows, some dozens, a few hundreds with long payloads.
        let size =
            random.chance(3) ? 150 + random.below(150) : random.chance(15) ? 20 + random.below(40) : 1 + random.below(5)
        func payload() -> String {
            let length = random.chance(5) ? 2_000 + random.below(6_000) : random.below(120)
            let letter = Character(Unicode.Scalar(UInt8(97 + random.below(26))))
            return "\(number):" + String(repeating: letter, count: length)
        }
        if world.groupSlots.count < 4 || random.chance(5) {
            add(.insertGroup(slot: newSlot(), name: "group \(number)"))
        }
        if world.tagSlots.count < 4 || random.chance(5) { add(.insertTag(slot: newSlot(), name: "tag \(number)")) }
        for _ in 0..<size {
            let entries = world.entrySlots
            switch random.below(entries.isEmpty ? 1 : 10) {
            case 0, 1, 2:
                let group = random.chance(70) ? random.pick(world.groupSlots) : nil
                let tags = random.chance(50) ? [random.pick(world.tagSlots)] : []
                add(
                    .insertEntry(
                        slot: newSlot(),
                        .init(batch: number, payload: payload(), amount: random.below(1_000), group: group, tags: tags))
                )
            case 3, 4:
                let slot = random.pick(entries)
                add(
                    .updateEntry(
                        slot: slot, batch: number, payload: payload(), amount: (world.entries[slot]?.amount ?? 0) + 1))
            case 5:
                add(.deleteEntry(slot: random.pick(entries)))
            case 6:
                add(
                    .setGroup(
                        slot: random.pick(entries), group: random.chance(80) ? random.pick(world.groupSlots) : nil))
            case 7:
                let slot = random.pick(entries)
                if let group = world.entries[slot]?.group, random.chance(40) {
                    add(.removeFromGroup(slot: slot, group: group))
                } else {
                    add(.addToGroup(slot: slot, group: random.pick(world.groupSlots)))
                }
            case 8:
                let slot = random.pick(entries)
                if let tag = world.entries[slot]?.tags.first, random.chance(40) {
                    add(.untag(slot: slot, tag: tag))
                } else {
                    add(.tag(slot: slot, tag: random.pick(world.tagSlots)))
                }
            default:
                if world.groupSlots.count > 6, random.chance(10) {
                    add(.deleteGroup(slot: random.pick(world.groupSlots)))
                } else {
                    add(
                        .updateEntry(
                            slot: random.pick(entries), batch: number, payload: payload(), amount: random.below(1_000)))
                }
            }
        }
        let stamped = world.entries.values.reduce(0) { $0 + ($1.batch == number ? 1 : 0) }
        add(.record(number: number, entryCount: stamped))
        return operations
    }
}
