import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Live results driven by a format predicate and Core Data-style sort descriptors.
@MainActor
@Suite struct TranslationLiveTests {
    @Test(arguments: StoreKind.all)
    func observerFollowsAFormatDescriptor(_ kind: StoreKind) async throws {
        let context = try TranslationFixture.seededContext(kind)
        let descriptor = FetchDescriptor<FormatTask>(
            predicate: FormatPredicate(format: "title CONTAINS[cd] %@", "ecole"),
            sortDescriptors: [FormatSortDescriptor(key: "priority", ascending: false)])
        let observer = try ResultsObserver(fetchDescriptor: descriptor, modelContext: context)
        #expect(observer.results.map(\.title) == ["ÉCOLE forms", "école pickup"])
        context.insert(FormatTask(title: "Ecole fair", priority: 7))
        context.insert(FormatTask(title: "Unrelated", priority: 9))
        try context.save()
        #expect(await LiveFixtures.eventually { observer.results.count == 3 })
        #expect(observer.results.map(\.title) == ["Ecole fair", "ÉCOLE forms", "école pickup"])
    }
}
