import Foundation
import Strata

// The crash and power-cut workloads' models. Every save stamps the entries it writes with its number and records
// itself in a `SaveRecord`, so the store shows which saves it holds; a digest of every row compares it with the
// state the same saves produce in memory (`World`).

/// One committed save: its number and how many entries carry it as their batch once it is written.
@Model
final class SaveRecord {
    @Attribute(.unique) var number: Int
    var entryCount: Int

    init(number: Int, entryCount: Int) {
        self.number = number
        self.entryCount = entryCount
    }
}

/// A row of varying size with a to-one group and many-to-many tags.
@Model
final class Entry {
    @Attribute(.unique) var slot: Int
    var batch: Int
    var payload: String
    var amount: Int
    var group: EntryGroup?
    @Relationship(inverse: \EntryTag.entries) var tags: [EntryTag] = []

    init(slot: Int, batch: Int, payload: String, amount: Int) {
        self.slot = slot
        self.batch = batch
        self.payload = payload
        self.amount = amount
    }
}

/// The to-one side of entries: deleting a group nullifies its entries' `group`.
@Model
final class EntryGroup {
    @Attribute(.unique) var slot: Int
    var name: String
    @Relationship(inverse: \Entry.group) var entries: [Entry] = []

    init(slot: Int, name: String) {
        self.slot = slot
        self.name = name
    }
}

/// The many-to-many side of entries (a join table).
@Model
final class EntryTag {
    @Attribute(.unique) var slot: Int
    var name: String
    var entries: [Entry] = []

    init(slot: Int, name: String) {
        self.slot = slot
        self.name = name
    }
}

/// The concurrency workload's model: one counter row, incremented by read-modify-write.
@Model
final class Counter {
    @Attribute(.unique) var name: String
    var value: Int

    init(name: String, value: Int = 0) {
        self.name = name
        self.value = value
    }
}

/// Every model of the crash and power-cut stores.
var workloadModels: [any PersistentModel.Type] { [SaveRecord.self, Entry.self, EntryGroup.self, EntryTag.self] }
