import Foundation
import Strata

/// The crash and power-cut child: makes `saves` seeded saves to the store through Strata, logging each one after
/// `save()` returns. It starts from an empty store.
@MainActor
struct Writer {
    let storePath: String
    let logPath: String
    let seed: UInt64
    let saves: Int

    func run() throws {
        let container = try ModelContainer(
            for: Schema(workloadModels), configurations: ModelConfiguration(url: URL(fileURLWithPath: storePath)))
        let context = ModelContext(container)
        let log = try SideLog(path: logPath)
        var world = World()
        var models = ModelsBySlot()
        for number in 1...saves {
            let operations = SavePlan.operations(forSave: number, seed: seed, world: world)
            for operation in operations {
                world.apply(operation)
                models.apply(operation, in: context)
            }
            world.saves = number
            try context.save()
            try log.append(number: number, digest: world.digest)
        }
    }
}

/// The writer's models by slot: one long-lived context keeps every model it inserted.
struct ModelsBySlot {
    private var entries: [Int: Entry] = [:]
    private var groups: [Int: EntryGroup] = [:]
    private var tags: [Int: EntryTag] = [:]

    mutating func apply(_ operation: Operation, in context: ModelContext) {
        switch operation {
        case .insertGroup(let slot, let name):
            let group = EntryGroup(slot: slot, name: name)
            context.insert(group)
            groups[slot] = group
        case .insertTag(let slot, let name):
            let tag = EntryTag(slot: slot, name: name)
            context.insert(tag)
            tags[slot] = tag
        case .insertEntry(let slot, let state):
            let entry = Entry(slot: slot, batch: state.batch, payload: state.payload, amount: state.amount)
            context.insert(entry)
            entry.group = state.group.flatMap { groups[$0] }
            entry.tags = state.tags.compactMap { tags[$0] }
            entries[slot] = entry
        case .updateEntry(let slot, let batch, let payload, let amount):
            guard let entry = entries[slot] else { return }
            entry.batch = batch
            entry.payload = payload
            entry.amount = amount
        case .setGroup(let slot, let group):
            entries[slot]?.group = group.flatMap { groups[$0] }
        case .addToGroup(let slot, let group):
            guard let entry = entries[slot], let group = group.flatMap({ groups[$0] }) else { return }
            group.entries.append(entry)
        case .removeFromGroup(let slot, let group):
            guard let entry = entries[slot], let group = groups[group] else { return }
            group.entries.removeAll { $0 === entry }
        case .tag(let slot, let tag):
            guard let entry = entries[slot], let tag = tags[tag], !entry.tags.contains(where: { $0 === tag }) else {
                return
            }
            entry.tags.append(tag)
        case .untag(let slot, let tag):
            guard let entry = entries[slot], let tag = tags[tag] else { return }
            entry.tags.removeAll { $0 === tag }
        case .deleteEntry(let slot):
            if let entry = entries.removeValue(forKey: slot) { context.delete(entry) }
        case .deleteGroup(let slot):
            if let group = groups.removeValue(forKey: slot) { context.delete(group) }
        case .record(let number, let count):
            context.insert(SaveRecord(number: number, entryCount: count))
        }
    }
}
