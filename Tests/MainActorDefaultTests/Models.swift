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
    @Attribute(.ephemeral) var isHighlighted = false

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

/// An app-defined value type stored as an attribute: main-actor isolated by the module's default, as in an app.
enum Mood: String, Codable, CaseIterable {
    case calm, busy
}

/// A composite attribute of an app-defined struct. Marked `nonisolated`, as a value type a model stores must be
/// in such a module: the model's initializer runs on any actor, and `#Predicate` needs `Sendable` key paths to its
/// fields, which a main-actor struct's aren't.
nonisolated struct Spot: Codable, Hashable {
    var city: String
    var floor = 0
}

/// Formats a title: a main-actor function of the app, which the model's own methods call.
func shout(_ text: String) -> String { text.uppercased() }

@Model
final class Journal {
    var title = ""
    var mood = Mood.calm
    var moods: [Mood] = []
    var spot = Spot(city: "Lisbon")
    var pinned: Mood? = nil
    var created = Date.now

    init(title: String, mood: Mood = .calm) {
        self.title = title
        self.mood = mood
    }

    /// The title as a heading, through a main-actor helper: a member that calls main-actor code says so, as the
    /// model itself is usable from any actor.
    @MainActor var heading: String { shout(title) }
}

extension Journal: Comparable {
    static func < (lhs: Journal, rhs: Journal) -> Bool { lhs.title < rhs.title }
}

extension Journal: CustomStringConvertible {
    var description: String { "Journal(\(title))" }
}

/// Models that state their own `Sendable`, in their declaration or in an extension, as apps written before
/// SwiftData's models were `Sendable` do: the macro adds no second one (a warning).
@Model final class Draft: @unchecked Sendable {
    var text = ""
    init(text: String) { self.text = text }
}

@Model final class Outline {
    var heading = ""
    init(heading: String) { self.heading = heading }
}

extension Outline: @unchecked Sendable {}

/// Reads models of both kinds from nonisolated code, and hands them to code that needs them `Sendable`.
nonisolated func summaries(of draft: Draft, _ outline: Outline) -> [String] {
    func checked<Value: Sendable>(_ value: Value) -> Value { value }
    return [checked(draft).text, checked(outline).heading]
}

/// A model comparing by a natural key, declared in a plain extension as apps add it.
@Model
final class Label {
    var code: String

    init(code: String) {
        self.code = code
    }
}

extension Label {
    static func == (lhs: Label, rhs: Label) -> Bool { lhs.code == rhs.code }
    func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

/// Compares labels off the main actor.
nonisolated func distinctLabelCodes(_ labels: [Label]) -> Int {
    Set(labels).count
}

/// A parcel's status: a raw-value enum, main-actor isolated by the module's default and not marked otherwise. Its
/// `Codable` and `Equatable` conformances are Swift's raw-value ones, which are nonisolated, so the model stores it
/// and `#Predicate` compares it on any actor.
enum Status: String, Codable {
    case open, shipped, delivered
}

/// A parcel's address, a composite attribute. A struct's synthesized `Codable` and `Equatable` are main-actor
/// isolated conformances in this module, usable on the main actor only, while the model encodes and compares its
/// values on whatever actor its context runs: so the struct is declared `nonisolated`.
nonisolated struct Address: Codable, Equatable {
    var street: String
    var city: String
}

@Model
final class Parcel {
    var status = Status.open
    var address: Address
    var trail: [Status] = []

    init(address: Address, status: Status = .open) {
        self.address = address
        self.status = status
    }
}
