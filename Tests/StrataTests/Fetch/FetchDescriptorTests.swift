import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("FetchDescriptor: predicates, sorting, paging, pending changes")
struct FetchDescriptorTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private static func day(_ offset: Int) -> Date {
        start.addingTimeInterval(Double(offset) * 86_400)
    }

    /// A saved store of five readings, one context over it.
    private func savedReadings(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, Reading.self))
        context.insert(Reading(title: "Dune", pages: 412, isFinished: true, startedAt: Self.day(0), rating: 5))
        context.insert(Reading(title: "Emma", pages: 474, isFinished: false, startedAt: Self.day(1)))
        context.insert(Reading(title: "Kindred", pages: 264, isFinished: true, startedAt: Self.day(2), rating: 4))
        context.insert(Reading(title: "Beloved", pages: 324, isFinished: false, startedAt: Self.day(3), rating: 5))
        context.insert(Reading(title: "Solaris", pages: 204, isFinished: true, startedAt: Self.day(4)))
        try context.save()
        return context
    }

    private func titles(
        _ context: ModelContext, _ predicate: Predicate<Reading>?, pending: Bool = true
    ) throws -> [String] {
        var descriptor = FetchDescriptor<Reading>(predicate: predicate, sortBy: [SortDescriptor(\.title)])
        descriptor.includePendingChanges = pending
        return try context.fetch(descriptor).map(\.title)
    }

    @Test("== and != on strings", arguments: StoreKind.all)
    func stringEquality(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        #expect(try titles(context, #Predicate { $0.title == "Dune" }) == ["Dune"])
        #expect(try titles(context, #Predicate { $0.title != "Dune" }) == ["Beloved", "Emma", "Kindred", "Solaris"])
        let wanted = "Emma"
        #expect(try titles(context, #Predicate { $0.title == wanted }) == ["Emma"])
    }

    @Test("<, <=, >, >= on integers", arguments: StoreKind.all)
    func integerComparisons(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        #expect(try titles(context, #Predicate { $0.pages < 300 }) == ["Kindred", "Solaris"])
        #expect(try titles(context, #Predicate { $0.pages <= 324 }) == ["Beloved", "Kindred", "Solaris"])
        #expect(try titles(context, #Predicate { $0.pages > 412 }) == ["Emma"])
        #expect(try titles(context, #Predicate { $0.pages >= 412 }) == ["Dune", "Emma"])
        #expect(try titles(context, #Predicate { 300 > $0.pages }) == ["Kindred", "Solaris"])
    }

    @Test("Booleans, negation, && and ||", arguments: StoreKind.all)
    func logic(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        #expect(try titles(context, #Predicate { $0.isFinished }) == ["Dune", "Kindred", "Solaris"])
        #expect(try titles(context, #Predicate { !$0.isFinished }) == ["Beloved", "Emma"])
        #expect(try titles(context, #Predicate { $0.isFinished == false }) == ["Beloved", "Emma"])
        #expect(try titles(context, #Predicate { $0.isFinished && $0.pages > 250 }) == ["Dune", "Kindred"])
        #expect(try titles(context, #Predicate { $0.title == "Emma" || $0.pages < 210 }) == ["Emma", "Solaris"])
        #expect(try titles(context, #Predicate { !($0.pages < 300 || $0.title == "Emma") }) == ["Beloved", "Dune"])
    }

    @Test("Dates compare by time", arguments: StoreKind.all)
    func dates(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let cutoff = Self.day(2)
        #expect(try titles(context, #Predicate { $0.startedAt > cutoff }) == ["Beloved", "Solaris"])
        #expect(try titles(context, #Predicate { $0.startedAt <= cutoff }) == ["Dune", "Emma", "Kindred"])
        #expect(try titles(context, #Predicate { $0.startedAt == cutoff }) == ["Kindred"])
    }

    @Test("Optionals: == nil, != nil and == a value", arguments: StoreKind.all)
    func optionals(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        #expect(try titles(context, #Predicate { $0.rating == nil }) == ["Emma", "Solaris"])
        #expect(try titles(context, #Predicate { $0.rating != nil }) == ["Beloved", "Dune", "Kindred"])
        #expect(try titles(context, #Predicate { $0.rating == 5 }) == ["Beloved", "Dune"])
        #expect(try titles(context, #Predicate { $0.rating != 5 }) == ["Emma", "Kindred", "Solaris"])
    }

    @Test("Sorting by several keys, ascending and descending, nil lowest", arguments: StoreKind.all)
    func multiKeySort(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let byRating = FetchDescriptor<Reading>(sortBy: [
            SortDescriptor(\.rating, order: .reverse), SortDescriptor(\.title),
        ])
        #expect(try context.fetch(byRating).map(\.title) == ["Beloved", "Dune", "Kindred", "Emma", "Solaris"])
        let byPages = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.pages, order: .reverse)])
        #expect(try context.fetch(byPages).map(\.title) == ["Emma", "Dune", "Beloved", "Kindred", "Solaris"])
        let byDate = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        #expect(try context.fetch(byDate).map(\.title) == ["Solaris", "Beloved", "Kindred", "Emma", "Dune"])
    }

    @Test("fetchLimit and fetchOffset page through sorted results", arguments: StoreKind.all)
    func limitAndOffset(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        var descriptor = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.title)])
        descriptor.fetchLimit = 2
        #expect(try context.fetch(descriptor).map(\.title) == ["Beloved", "Dune"])
        descriptor.fetchOffset = 1
        #expect(try context.fetch(descriptor).map(\.title) == ["Dune", "Emma"])
        descriptor.fetchOffset = 4
        #expect(try context.fetch(descriptor).map(\.title) == ["Solaris"])
        descriptor.fetchOffset = 9
        #expect(try context.fetch(descriptor).isEmpty)
    }

    @Test("fetchCount and fetchIdentifiers agree with fetch", arguments: StoreKind.all)
    func countAndIdentifiers(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let finished = FetchDescriptor<Reading>(
            predicate: #Predicate { $0.isFinished }, sortBy: [SortDescriptor(\.title)])
        #expect(try context.fetchCount(finished) == 3)
        #expect(try context.fetchCount(FetchDescriptor<Reading>()) == 5)
        let identifiers = try context.fetchIdentifiers(finished)
        #expect(identifiers == (try context.fetch(finished)).map(\.persistentModelID))
        #expect(identifiers.allSatisfy { !$0.isTemporary })

        var page = finished
        page.fetchOffset = 1
        page.fetchLimit = 1
        #expect(try context.fetchIdentifiers(page) == [identifiers[1]])
        #expect(try context.fetchCount(page) == 1)
    }

    @Test(
        "includePendingChanges: unsaved inserts appear, deletes disappear, changes judged by new values",
        arguments: StoreKind.all)
    func pendingChangesIncluded(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let all = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.title)]))
        context.insert(Reading(title: "Aniara", pages: 100, isFinished: false, startedAt: Self.day(5)))
        context.delete(all[3]) // Kindred, 264 pages
        all[2].pages = 100 // Emma, was 474
        all[1].pages = 900 // Dune, was 412

        let short: Predicate<Reading> = #Predicate { $0.pages < 300 }
        #expect(try titles(context, short) == ["Aniara", "Emma", "Solaris"])
        #expect(try context.fetchCount(FetchDescriptor(predicate: short)) == 3)
        #expect(try context.fetchIdentifiers(FetchDescriptor(predicate: short)).count == 3)
        var limited = FetchDescriptor<Reading>(
            predicate: short, sortBy: [SortDescriptor(\.pages), SortDescriptor(\.title)])
        limited.fetchLimit = 2
        #expect(try context.fetch(limited).map(\.title) == ["Aniara", "Emma"])

        #expect(try titles(context, short, pending: false) == ["Kindred", "Solaris"])
        var saved = FetchDescriptor<Reading>(predicate: short)
        saved.includePendingChanges = false
        #expect(try context.fetchCount(saved) == 2)
        #expect(try titles(context, #Predicate { $0.pages > 800 }, pending: false).isEmpty)
        #expect(try titles(context, #Predicate { $0.pages > 800 }) == ["Dune"])
    }

    /// "Dune", fetched in a fresh context of the saved readings with only its title loaded.
    private func duneWithOnlyTitleLoaded(_ kind: StoreKind) throws -> (context: ModelContext, dune: Reading) {
        let fresh = ModelContext(try savedReadings(kind).container)
        var descriptor = FetchDescriptor<Reading>(predicate: #Predicate { $0.title == "Dune" })
        descriptor.propertiesToFetch = [\.title]
        return (fresh, try #require(try fresh.fetch(descriptor).first))
    }

    @Test("propertiesToFetch loads the rest lazily, with the stored values", arguments: StoreKind.all)
    func propertiesToFetch(_ kind: StoreKind) throws {
        let (_, dune) = try duneWithOnlyTitleLoaded(kind)
        #expect(dune.persistentBackingData.unloadedProperties?.isEmpty == false)
        #expect(dune.title == "Dune")
        #expect(dune.pages == 412)
        #expect(dune.rating == 5)
        #expect(dune.startedAt == Self.day(0))
        #expect(dune.isFinished)
        #expect(dune.persistentBackingData.unloadedProperties == nil)
        #expect(!dune.hasChanges)
    }

    @Test(
        "Assigning properties propertiesToFetch left out, before reading any, keeps the assigned values and saves them",
        arguments: StoreKind.all)
    func assignUnloadedProperties(_ kind: StoreKind) throws {
        let (fresh, dune) = try duneWithOnlyTitleLoaded(kind)
        // The first assignment loads the rest; it must not then be overwritten by the loaded value.
        dune.pages = 500
        dune.rating = nil
        #expect(dune.pages == 500)
        #expect(dune.rating == nil)
        #expect(dune.isFinished)
        #expect(dune.hasChanges)
        try fresh.save()

        let reread = try #require(
            try ModelContext(fresh.container).fetch(
                FetchDescriptor<Reading>(predicate: #Predicate { $0.title == "Dune" })
            ).first)
        #expect(reread.pages == 500)
        #expect(reread.rating == nil)
        #expect(reread.isFinished)
        #expect(reread.startedAt == Self.day(0))
    }

    @Test(
        "propertiesToFetch: lazily loaded optional and Codable values decode (regression: they read as nil)",
        arguments: StoreKind.all)
    func lazilyLoadedCachedValues(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Everything.self)
        let setup = ModelContext(container)
        let model = Everything()
        model.optionalGenre = .poetry
        model.optionalDimensions = Dimensions(width: 3, height: 4, label: "lazy")
        model.tags = ["a", "b"]
        setup.insert(model)
        try setup.save()

        var descriptor = FetchDescriptor<Everything>()
        descriptor.propertiesToFetch = [\.flag]
        let lazy = try #require(try ModelContext(container).fetch(descriptor).first)
        #expect(lazy.optionalGenre == .poetry)
        #expect(lazy.optionalDimensions == Dimensions(width: 3, height: 4, label: "lazy"))
        #expect(lazy.tags == ["a", "b"])
    }

    @Test("delete(model:where:) then save removes exactly the matching rows", arguments: StoreKind.all)
    func batchDelete(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let kindred = try #require(
            try context.fetch(FetchDescriptor<Reading>(predicate: #Predicate { $0.title == "Kindred" })).first)
        try context.delete(model: Reading.self, where: #Predicate { $0.isFinished })
        #expect(kindred.isDeleted)
        #expect(context.hasChanges)
        try context.save()
        #expect(try titles(context, nil) == ["Beloved", "Emma"])
        #expect(try titles(ModelContext(context.container), nil, pending: false) == ["Beloved", "Emma"])
        try context.delete(model: Reading.self)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Reading>()) == 0)
    }

    @Test(
        "A batch delete's save reports exactly the deleted rows in didSave, including rows no context loaded",
        arguments: StoreKind.all)
    func batchDeleteReportsDeletedIdentifiers(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let finished = try context.fetchIdentifiers(FetchDescriptor<Reading>(predicate: #Predicate { $0.isFinished }))
        let writer = ModelContext(context.container)
        let recorder = SaveRecorder(writer)
        try writer.delete(model: Reading.self, where: #Predicate { $0.isFinished })
        try writer.save()
        #expect(!finished.isEmpty)
        #expect(recorder.recorded.map { Set($0.deleted) } == [Set(finished)])
        #expect(try context.fetchCount(FetchDescriptor<Reading>(predicate: #Predicate { $0.isFinished })) == 0)
    }

    @Test(
        "A predicate the store can't run throws unsupportedPredicate, or else matches in-memory evaluation",
        arguments: StoreKind.all)
    func untranslatablePredicates(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let predicates: [Predicate<Reading>] = [
            #Predicate { $0.title.count > 4 },
            #Predicate { $0.title.contains("o") },
            #Predicate { $0.pages % 2 == 0 },
            #Predicate { ($0.rating ?? 0) > 3 },
        ]
        let everything = try context.fetch(FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.title)]))
        for predicate in predicates {
            let expected = try everything.filter { try predicate.evaluate($0) }.map(\.title)
            do {
                #expect(try titles(context, predicate, pending: false) == expected)
            } catch StrataError.unsupportedPredicate(let expression, let reason) {
                #expect(!expression.isEmpty)
                #expect(!reason.isEmpty)
            }
        }
    }
}
