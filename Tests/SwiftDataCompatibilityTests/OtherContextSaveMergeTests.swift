import Foundation
import Observation
import SwiftData
import Testing

@Model final class MergeTag {
    var name: String = ""
    @Relationship(deleteRule: .nullify, inverse: \MergeEntry.tag) var entries: [MergeEntry] = []
    @Relationship(inverse: \MergeLabel.tags) var labels: [MergeLabel] = []
    init(name: String) { self.name = name }
}

@Model final class MergeEntry {
    var title: String = ""
    var amount: Double = 0
    var tag: MergeTag?
    init(title: String, amount: Double = 0, tag: MergeTag? = nil) {
        self.title = title
        self.amount = amount
        self.tag = tag
    }
}

@Model final class MergeLabel {
    var text: String = ""
    var tags: [MergeTag] = []
    init(text: String) { self.text = text }
}

/// A data service as apps write theirs: it changes the store from its own context.
@ModelActor actor MergeEntryService {
    func deleteEntry(titled title: String) throws {
        let entries = try modelContext.fetch(FetchDescriptor<MergeEntry>(predicate: #Predicate { $0.title == title }))
        for entry in entries { modelContext.delete(entry) }
        try modelContext.save()
    }

    func addEntry(titled title: String, toTagNamed name: String) throws {
        let tag = try modelContext.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == name })).first
        modelContext.insert(MergeEntry(title: title, tag: tag))
        try modelContext.save()
    }

    func setAmount(_ amount: Double, ofEntryTitled title: String) throws {
        let entries = try modelContext.fetch(FetchDescriptor<MergeEntry>(predicate: #Predicate { $0.title == title }))
        for entry in entries { entry.amount = amount }
        try modelContext.save()
    }

    func deleteTag(named name: String) throws {
        try modelContext.delete(model: MergeTag.self, where: #Predicate { $0.name == name })
        try modelContext.save()
    }

    func label(tagNamed name: String, with text: String) throws {
        let tag = try modelContext.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == name })).first
        let label = MergeLabel(text: text)
        modelContext.insert(label)
        label.tags = tag.map { [$0] } ?? []
        try modelContext.save()
    }
}

/// A context sees what the container's other contexts saved, as SwiftData's contexts do: the next fetch merges
/// the saves into the models it holds, and the main context merges them by itself soon after.
@Suite @MainActor struct OtherContextSaveMergeTests {
    /// A tag with two entries, saved and loaded in the main context, its entries read.
    private func loadedTag(_ container: ModelContainer) throws -> MergeTag {
        let context = container.mainContext
        let tag = MergeTag(name: "food")
        context.insert(tag)
        context.insert(MergeEntry(title: "bread", amount: 2, tag: tag))
        context.insert(MergeEntry(title: "milk", amount: 1, tag: tag))
        try context.save()
        #expect(Set(tag.entries.map(\.title)) == ["bread", "milk"])
        return tag
    }

    private func fetchTag(_ context: ModelContext) throws -> MergeTag? {
        try context.fetch(FetchDescriptor<MergeTag>(predicate: #Predicate { $0.name == "food" })).first
    }

    @Test(arguments: StoreKind.all) func aModelActorsDeletionLeavesTheLoadedToManyList(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        let milk = try #require(tag.entries.first { $0.title == "milk" })
        try await MergeEntryService(modelContainer: container).deleteEntry(titled: "milk")

        #expect(try fetchTag(container.mainContext) === tag)
        #expect(tag.entries.map(\.title) == ["bread"])
        #expect(milk.isDeleted)
        #expect(milk.modelContext == nil)
    }

    @Test(arguments: StoreKind.all) func theMainContextMergesWithoutAFetch(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        try await MergeEntryService(modelContainer: container).deleteEntry(titled: "milk")

        // The merge is a job on the main actor after the save; give it a few turns, as a view's next update would.
        for _ in 0..<100 where tag.entries.count != 1 { await Task.yield() }
        #expect(tag.entries.map(\.title) == ["bread"])
    }

    @Test(arguments: StoreKind.all) func anInsertedModelJoinsTheLoadedToManyList(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        try await MergeEntryService(modelContainer: container).addEntry(titled: "eggs", toTagNamed: "food")

        _ = try fetchTag(container.mainContext)
        #expect(Set(tag.entries.map(\.title)) == ["bread", "milk", "eggs"])
    }

    @Test(arguments: StoreKind.all) func changedValuesAreReadAndObserved(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        let bread = try #require(tag.entries.first { $0.title == "bread" })
        let observed = ObservedChange()
        withObservationTracking {
            _ = bread.amount
        } onChange: {
            observed.fire()
        }

        try await MergeEntryService(modelContainer: container).setAmount(5, ofEntryTitled: "bread")
        _ = try container.mainContext.fetchCount(FetchDescriptor<MergeEntry>())
        #expect(bread.amount == 5)
        #expect(observed.didFire)
    }

    @Test(arguments: StoreKind.all) func unsavedChangesAreKept(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        let bread = try #require(tag.entries.first { $0.title == "bread" })
        container.mainContext.autosaveEnabled = false
        bread.title = "rye bread"

        try await MergeEntryService(modelContainer: container).setAmount(5, ofEntryTitled: "bread")
        _ = try fetchTag(container.mainContext)
        #expect(bread.title == "rye bread")
        #expect(bread.hasChanges)
    }

    @Test(arguments: StoreKind.all) func aBatchDeletionNullifiesLoadedToOneRelationships(_ kind: StoreKind) async throws
    {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        let bread = try #require(tag.entries.first { $0.title == "bread" })
        #expect(bread.tag === tag)

        try await MergeEntryService(modelContainer: container).deleteTag(named: "food")
        #expect(try fetchTag(container.mainContext) == nil)
        #expect(tag.isDeleted)
        #expect(bread.tag == nil)
        #expect(!bread.isDeleted)
    }

    @Test(arguments: StoreKind.all) func aManyToManyChangeIsMerged(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let tag = try loadedTag(container)
        #expect(tag.labels.isEmpty)

        try await MergeEntryService(modelContainer: container).label(tagNamed: "food", with: "weekly")
        _ = try fetchTag(container.mainContext)
        #expect(tag.labels.map(\.text) == ["weekly"])
    }

    @Test(arguments: StoreKind.all) func aContextOfItsOwnMergesAtItsNextFetch(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, MergeTag.self, MergeEntry.self, MergeLabel.self)
        let reader = ModelContext(container)
        let writer = ModelContext(container)
        let tag = MergeTag(name: "food")
        writer.insert(tag)
        writer.insert(MergeEntry(title: "bread", tag: tag))
        try writer.save()

        let readTag = try #require(try fetchTag(reader))
        #expect(readTag.entries.map(\.title) == ["bread"])
        writer.insert(MergeEntry(title: "milk", tag: tag))
        readTag.name = "groceries"
        try writer.save()

        _ = try reader.fetchCount(FetchDescriptor<MergeEntry>())
        #expect(Set(readTag.entries.map(\.title)) == ["bread", "milk"])
        #expect(readTag.name == "groceries", "the reader's unsaved rename is kept")
    }
}

/// Records that an observation fired, from whichever thread.
private final class ObservedChange: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    func fire() { lock.withLock { fired = true } }
    var didFire: Bool { lock.withLock { fired } }
}
