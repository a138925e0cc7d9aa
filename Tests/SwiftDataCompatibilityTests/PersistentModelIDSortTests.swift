import Foundation
import SwiftData
import Testing

@Model final class SortedEntry {
    var title: String
    init(title: String) { self.title = title }
}

/// `SortDescriptor(\.persistentModelID)`, which SwiftData apps use for a stable order.
@Suite struct PersistentModelIDSortTests {
    @Test(arguments: StoreKind.all) func sortsByPersistentModelIDInBothDirections(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SortedEntry.self)
        let context = ModelContext(container)
        for title in ["c", "a", "b"] {
            context.insert(SortedEntry(title: title))
            try context.save()
        }
        let forward = try context.fetch(FetchDescriptor<SortedEntry>(sortBy: [SortDescriptor(\.persistentModelID)]))
        #expect(forward.map(\.title) == ["c", "a", "b"])
        let reverse = try context.fetch(
            FetchDescriptor<SortedEntry>(sortBy: [SortDescriptor(\.persistentModelID, order: .reverse)]))
        #expect(reverse.map(\.title) == ["b", "a", "c"])
    }

    @Test(arguments: StoreKind.all) func unsavedModelsSortAfterSavedOnes(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SortedEntry.self)
        let context = ModelContext(container)
        context.autosaveEnabled = false
        context.insert(SortedEntry(title: "saved"))
        try context.save()
        context.insert(SortedEntry(title: "pending"))
        let forward = try context.fetch(
            FetchDescriptor<SortedEntry>(sortBy: [SortDescriptor(\SortedEntry.persistentModelID)]))
        #expect(forward.map(\.title) == ["saved", "pending"])
        let reverse = try context.fetch(
            FetchDescriptor<SortedEntry>(sortBy: [SortDescriptor(\SortedEntry.persistentModelID, order: .reverse)]))
        #expect(reverse.map(\.title) == ["pending", "saved"])
    }
}
