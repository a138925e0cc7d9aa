import Foundation
import SwiftData
import Testing

@Model final class ReleasedShelf {
    var label: String
    @Relationship(deleteRule: .cascade, inverse: \ReleasedVolume.shelf) var volumes: [ReleasedVolume] = []
    var tags: [ReleasedTag] = []
    init(label: String) { self.label = label }
}

@Model final class ReleasedVolume {
    var title: String
    var shelf: ReleasedShelf?
    init(title: String) { self.title = title }
}

@Model final class ReleasedTag {
    var name: String
    var shelves: [ReleasedShelf] = []
    init(name: String) { self.name = name }
}

/// Models fetched by a context that was then released (a helper making a throwaway `ModelContext`) read their
/// relationships from the store: what is stored, never a silent nil or empty.
@Suite struct ReleasedContextTests {
    private func fetchShelves(_ container: ModelContainer) throws -> [ReleasedShelf] {
        try ModelContext(container).fetch(FetchDescriptor<ReleasedShelf>())
    }

    @Test(arguments: StoreKind.all) func relationshipsOfAModelWhoseContextIsGoneReadWhatIsStored(
        _ kind: StoreKind
    ) throws {
        let container = try freshContainer(kind, ReleasedShelf.self, ReleasedVolume.self, ReleasedTag.self)
        do {
            let context = ModelContext(container)
            let shelf = ReleasedShelf(label: "A")
            shelf.volumes = [ReleasedVolume(title: "One"), ReleasedVolume(title: "Two")]
            shelf.tags = [ReleasedTag(name: "fiction")]
            context.insert(shelf)
            try context.save()
        }
        let shelf = try #require(try fetchShelves(container).first)
        #expect(shelf.modelContext == nil)
        #expect(shelf.volumes.map(\.title).sorted() == ["One", "Two"])
        #expect(shelf.volumes.first?.shelf?.label == "A")
        #expect(shelf.tags.map(\.name) == ["fiction"])
        #expect(shelf.tags.first?.shelves.map(\.label) == ["A"])
        let volume = try #require(
            try ModelContext(container).fetch(
                FetchDescriptor<ReleasedVolume>(
                    predicate: #Predicate { $0.title == "One" })
            ).first)
        #expect(volume.shelf?.label == "A")
    }
}
