import Foundation
import SwiftData
import Testing

// Members inside `#if` blocks, as apps shared between platforms and build configurations write them: methods,
// computed and @Transient properties, nested types, static samples and initializers.
@Model final class PlatformRecipe {
    var title: String
    var minutes = 0

    #if os(Linux)
    var platformName: String { "Linux" }
    #elseif os(macOS)
    var platformName: String { "macOS" }
    #else
    var platformName: String { "other" }
    #endif

    #if DEBUG
    @Transient var debugNote = "unsaved"
    static var preview: PlatformRecipe { PlatformRecipe(title: "Preview", minutes: 5) }
    #endif

    #if canImport(Foundation)
    enum Speed: String { case quick, slow }
    var speed: Speed { minutes < 15 ? .quick : .slow }

    func summary() -> String { "\(title) (\(minutes) min, \(speed.rawValue))" }

    init(title: String, minutes: Int) {
        self.title = title
        self.minutes = minutes
    }
    #endif
}

@Suite struct ConditionalMemberTests {
    @Test(arguments: StoreKind.all) func membersInsideIfBlocksBelongToTheModel(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, PlatformRecipe.self)
        let context = ModelContext(container)
        context.insert(PlatformRecipe(title: "Soup", minutes: 40))
        context.insert(PlatformRecipe(title: "Toast", minutes: 3))
        try context.save()

        let fetched = try ModelContext(container).fetch(
            FetchDescriptor<PlatformRecipe>(
                predicate: #Predicate { $0.minutes < 15 }, sortBy: [SortDescriptor(\.title)]))
        #expect(fetched.map { $0.summary() } == ["Toast (3 min, quick)"])
        #expect(fetched.first?.platformName == "Linux")
        // Only the properties outside `#if` are stored.
        #expect(
            Schema([PlatformRecipe.self]).entities.first?.storedProperties.map(\.name).sorted() == ["minutes", "title"])
    }
}
