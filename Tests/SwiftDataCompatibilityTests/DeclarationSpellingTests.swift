import Foundation
import SwiftData
import Testing

// Spellings SwiftData models use that the macro must accept as written: restricted setters, several attribute
// options, defaults naming static members, an inverse given on one side.
@Model public final class SpelledFolder {
    static let defaultName = "Inbox"
    static var maxLimit: Int { 10 }

    public private(set) var name: String = SpelledFolder.defaultName
    private(set) var count = 0
    @Attribute(.unique, .spotlight, originalName: "ident") var ident = UUID()
    @Relationship(deleteRule: .cascade, inverse: \SpelledNote.folder) var notes: [SpelledNote] = []
    var limit: Int = SpelledFolder.maxLimit

    public init() {}

    func rename(_ newName: String) {
        name = newName
        count += 1
    }
}

@Model final class SpelledNote {
    var folder: SpelledFolder?
    var text = ""

    init(text: String) { self.text = text }
}

@Suite struct DeclarationSpellingTests {
    @Test(arguments: StoreKind.all) func restrictedSettersAndStaticDefaultsRoundTrip(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, SpelledFolder.self, SpelledNote.self)
        let context = ModelContext(container)
        let untouched = SpelledFolder()
        let renamed = SpelledFolder()
        renamed.rename("Archive")
        renamed.notes.append(SpelledNote(text: "kept"))
        context.insert(untouched)
        context.insert(renamed)
        try context.save()

        let reader = ModelContext(container)
        let fetched = try reader.fetch(FetchDescriptor<SpelledFolder>(sortBy: [SortDescriptor(\.count)]))
        #expect(fetched.map(\.name) == ["Inbox", "Archive"])
        #expect(fetched.map(\.limit) == [10, 10])
        #expect(fetched.last?.notes.map(\.text) == ["kept"])
        #expect(fetched.last?.notes.first?.folder === fetched.last)
        #expect(Set(fetched.map(\.ident)).count == 2)
    }

    @Test func theSchemaReadsAsSwiftDataSpellsIt() throws {
        let schema = Schema([SpelledFolder.self])
        #expect(Schema.entityName(for: SpelledFolder.self) == "SpelledFolder")
        let entity = try #require(schema.entitiesByName[Schema.entityName(for: SpelledNote.self)])
        #expect(entity.name == "SpelledNote")
        let folder = try #require(schema.entitiesByName["SpelledFolder"])
        let ident = try #require(folder.attributes.first { $0.name == "ident" })
        #expect(ident.isUnique)
        #expect(ident.originalName == "ident")
        #expect(ident.options.contains(.spotlight))
        #expect(folder.uniquenessConstraints == [["ident"]])
    }
}
