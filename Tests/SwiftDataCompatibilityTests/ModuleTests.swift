import SwiftData
import Testing

@Model final class CompatibilityNote {
    var text: String
    init(text: String) { self.text = text }
}

/// `import SwiftData` alone brings the whole programming model, and module-qualified names resolve.
@Suite struct ModuleTests {
    @Test func moduleQualifiedNamesResolveThroughTheSwiftDataModule() throws {
        let schema = SwiftData.Schema([CompatibilityNote.self])
        let container = try SwiftData.ModelContainer(
            for: schema, configurations: SwiftData.ModelConfiguration(isStoredInMemoryOnly: true))
        let context = SwiftData.ModelContext(container)
        context.insert(CompatibilityNote(text: "hello"))
        try context.save()
        let notes = try context.fetch(
            SwiftData.FetchDescriptor<CompatibilityNote>(
                predicate: #Predicate { $0.text == "hello" }))
        #expect(notes.map(\.text) == ["hello"])
    }
}
