import Foundation
import SwiftData

// Declared as an app target created by Xcode 26 declares its models: the module's default isolation is the main
// actor (see Package.swift), nothing is marked `nonisolated`, and types are inferred from initial values.

@Model
final class Item {
    var timestamp: Date
    var title = ""
    var priority = 0
    @Relationship(deleteRule: .cascade, inverse: \Tag.item) var tags: [Tag]? = []

    init(timestamp: Date, title: String, priority: Int = 0) {
        self.timestamp = timestamp
        self.title = title
        self.priority = priority
    }

    /// A method of the model, as apps write them: usable wherever the model is.
    func bump() {
        priority += 1
    }
}

@Model
final class Tag {
    var name: String
    var item: Item?

    init(name: String) {
        self.name = name
    }
}

/// A background importer, as SwiftData apps write them.
@ModelActor
actor ItemImporter {
    func importItems(_ titles: [String]) throws -> Int {
        for (offset, title) in titles.enumerated() {
            let item = Item(timestamp: .now, title: title, priority: offset)
            item.tags = [Tag(name: "imported")]
            modelContext.insert(item)
        }
        try modelContext.save()
        return try modelContext.fetchCount(FetchDescriptor<Item>())
    }

    func titles(minimumPriority: Int) throws -> [String] {
        let descriptor = FetchDescriptor<Item>(
            predicate: #Predicate { $0.priority >= minimumPriority },
            sortBy: [SortDescriptor(\.title, order: .reverse)]
        )
        return try modelContext.fetch(descriptor).map(\.title)
    }

    func bumpAll() throws {
        for item in try modelContext.fetch(FetchDescriptor<Item>()) {
            item.bump()
        }
        try modelContext.save()
    }

    func tagNames(of id: PersistentIdentifier) -> [String] {
        guard let item = self[id, as: Item.self] else { return [] }
        return (item.tags ?? []).map(\.name).sorted()
    }
}

/// Reads the store from nonisolated code, with key paths and predicates over the models.
nonisolated func storedTitles(in container: ModelContainer) throws -> [String] {
    let context = ModelContext(container)
    let sort = [SortDescriptor(\Item.priority), SortDescriptor(\Item.title)]
    return try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { !$0.title.isEmpty }, sortBy: sort)).map(
        \.title)
}

/// A nonisolated type holding a model type's key path, as generic sync and export layers do.
nonisolated struct ItemColumn: Sendable {
    let keyPath: KeyPath<Item, String> & Sendable = \Item.title

    func values(in context: ModelContext) throws -> [String] {
        try context.fetch(FetchDescriptor<Item>(sortBy: [SortDescriptor(keyPath)])).map { $0[keyPath: keyPath] }
    }
}
