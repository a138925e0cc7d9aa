import Foundation
import SwiftData
import Testing

/// Properties kept in the model only, given their values by the initializer as SwiftData code writes them, with no
/// initial value in the declaration.
@Model final class ScratchDocument {
    var title: String
    @Transient var wordCount: Int
    @Transient var cache: [String: Int]
    @Transient var lastOpened: Date?
    @Transient let sessionNote: String?
    @Attribute(.ephemeral) var isSelected: Bool
    @Attribute(.ephemeral) var highlights: [String]

    init(title: String) {
        self.title = title
        self.wordCount = title.split(separator: " ").count
        self.cache = ["opened": 1]
        self.sessionNote = "new"
        self.isSelected = true
        self.highlights = [title]
    }
}

@Suite struct TransientWithoutDefaultTests {
    @Test(arguments: StoreKind.all) func modelsLoadedFromTheStoreStartWithEmptyValues(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, ScratchDocument.self)
        let context = ModelContext(container)
        let document = ScratchDocument(title: "two words")
        context.insert(document)
        #expect(document.wordCount == 2 && document.isSelected && document.sessionNote == "new")
        try context.save()

        let loaded = try #require(try ModelContext(container).fetch(FetchDescriptor<ScratchDocument>()).first)
        #expect(loaded.title == "two words")
        #expect(loaded.wordCount == 0 && loaded.cache.isEmpty && loaded.lastOpened == nil && loaded.sessionNote == nil)
        #expect(!loaded.isSelected && loaded.highlights.isEmpty)
        loaded.isSelected = true
        loaded.wordCount = 5
        #expect(loaded.isSelected && loaded.wordCount == 5)
        // @Transient properties are not in the schema; @Attribute(.ephemeral) ones are, and are not stored.
        let entity = container.schema.entity(for: ScratchDocument.self)
        #expect(entity?.properties.map(\.name) == ["title", "isSelected", "highlights"])
        #expect(entity?.storedProperties.map(\.name) == ["title"])
    }
}
