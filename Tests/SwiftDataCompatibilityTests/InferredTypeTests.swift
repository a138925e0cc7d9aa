import Foundation
import SwiftData
import Testing

enum InferredProvider: String, Codable { case ollama, openAI }

// Declared as apps declare them, with every type inferred from its initial value.
@Model final class InferredSettings {
    var provider = InferredProvider.ollama
    var count = 0
    var title = ""
    var created = Date.now
    var tags = [String]()
    var score = 0.0
    var isEnabled = true
    var presets = [InferredPreset]()
    var note: String? = nil

    init() {}
}

@Model final class InferredPreset {
    var name = "Default"
    var settings: InferredSettings?

    init(name: String) { self.name = name }
}

@Suite struct InferredTypeTests {
    @Test(arguments: StoreKind.all) func inferredPropertiesAreStoredAndReadBack(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, InferredSettings.self, InferredPreset.self)
        let context = ModelContext(container)
        let settings = InferredSettings()
        let created = Date(timeIntervalSinceReferenceDate: 800_000_000)
        settings.provider = .openAI
        settings.count = 7
        settings.title = "Main"
        settings.created = created
        settings.tags = ["a", "b"]
        settings.score = 2.5
        settings.isEnabled = false
        settings.presets = [InferredPreset(name: "Fast")]
        settings.note = "kept"
        context.insert(settings)
        context.insert(InferredSettings())
        try context.save()

        let other = ModelContext(container)
        let fetched = try other.fetch(
            FetchDescriptor<InferredSettings>(sortBy: [SortDescriptor(\.count, order: .reverse)]))
        #expect(fetched.count == 2)
        let changed = try #require(fetched.first)
        #expect(changed.provider == .openAI)
        #expect(changed.count == 7)
        #expect(changed.title == "Main")
        #expect(changed.created == created)
        #expect(changed.tags == ["a", "b"])
        #expect(changed.score == 2.5)
        #expect(!changed.isEnabled)
        #expect(changed.presets.map(\.name) == ["Fast"])
        #expect(changed.presets.first?.settings === changed)
        #expect(changed.note == "kept")
        let untouched = try #require(fetched.last)
        #expect(
            untouched.provider == .ollama && untouched.title.isEmpty && untouched.note == nil && untouched.isEnabled)

        let filtered = try other.fetch(
            FetchDescriptor<InferredSettings>(predicate: #Predicate { $0.score > 1 && !$0.isEnabled }))
        #expect(filtered.map(\.title) == ["Main"])
    }

    @Test func theSchemaHasTheInferredTypes() throws {
        let entity = try #require(Schema([InferredSettings.self]).entities.first { $0.name == "InferredSettings" })
        let types = Dictionary(
            uniqueKeysWithValues: entity.attributes.map { ($0.name, "\($0.valueType)\($0.isOptional ? "?" : "")") })
        #expect(types["count"] == "Int")
        #expect(types["score"] == "Double")
        #expect(types["tags"] == "Array<String>")
        #expect(types["created"] == "Date")
        #expect(types["note"] == "String?")
        #expect(types["provider"] == "InferredProvider")
    }
}
