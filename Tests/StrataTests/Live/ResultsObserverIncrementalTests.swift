import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class LiveRow {
    var name: String
    var rank: Int
    var score: Double?
    init(name: String, rank: Int, score: Double?) {
        self.name = name
        self.rank = rank
        self.score = score
    }
}

/// An observer that applies saves incrementally, its twin that always refetches, and what each published.
@MainActor private final class ObserverPair {
    let incremental: ResultsObserver<LiveRow, String>
    let full: ResultsObserver<LiveRow, String>
    let descriptor: FetchDescriptor<LiveRow>
    var incrementalChanges: [ResultsChangeSet] = []
    var fullChanges: [ResultsChangeSet] = []

    init(_ descriptor: FetchDescriptor<LiveRow>, sectioned: Bool, context: ModelContext) throws {
        self.descriptor = descriptor
        let section: (any KeyPath<LiveRow, String> & Sendable)? = sectioned ? \LiveRow.name : nil
        func make() throws -> ResultsObserver<LiveRow, String> {
            if let section {
                return try ResultsObserver(fetchDescriptor: descriptor, sectionBy: section, modelContext: context)
            }
            return try ResultsObserver(
                context: context, descriptor: descriptor, sectionKeyPath: nil, sectionSort: nil,
                isolation: MainActor.shared)
        }
        incremental = try make()
        full = try make()
        full.refreshesIncrementally = false
        incremental.onChange = { [unowned self] in self.incrementalChanges.append($0.changes) }
        full.onChange = { [unowned self] in self.fullChanges.append($0.changes) }
    }

    var observers: [ResultsObserver<LiveRow, String>] { [incremental, full] }
}

@MainActor
@Suite("ResultsObserver: incremental refresh")
struct ResultsObserverIncrementalTests {
    private typealias Fixtures = LiveFixtures

    private static func container(_ kind: StoreKind = .sqlite) throws -> ModelContainer {
        try freshContainer(kind, LiveRow.self)
    }

    private static func descriptor(
        _ predicate: Predicate<LiveRow>?, _ sortBy: [SortDescriptor<LiveRow>]
    ) -> FetchDescriptor<LiveRow> {
        FetchDescriptor(predicate: predicate, sortBy: sortBy)
    }

    /// Saves in `context` and waits until every observer has refreshed once more.
    private static func save(
        _ context: ModelContext, observers: [ResultsObserver<LiveRow, String>]
    ) async throws -> Bool {
        let before = observers.map(\.fetchCount)
        try context.save()
        return await Fixtures.eventually { zip(observers, before).allSatisfy { $0.fetchCount > $1 } }
    }

    private static func randomRow(_ random: inout LiveRandom) -> LiveRow {
        let names = ["a", "b", "c", "d"]
        let score: Double? =
            Int.random(in: 0..<4, using: &random) == 0 ? nil : Double(Int.random(in: 0..<10, using: &random)) / 10
        return LiveRow(
            name: names[Int.random(in: 0..<names.count, using: &random)], rank: Int.random(in: 0..<10, using: &random),
            score: score)
    }

    @Test(arguments: StoreKind.all) func randomSavesGiveTheResultsAndChangesOfAFullRefetch(
        _ kind: StoreKind
    ) async throws {
        let container = try Self.container(kind)
        let observed = ModelContext(container)
        let writer = ModelContext(container)
        var random = LiveRandom(state: 0x5EED_1234)
        for _ in 0..<30 { writer.insert(Self.randomRow(&random)) }
        try writer.save()

        var limited = Self.descriptor(nil, [SortDescriptor(\.rank)])
        limited.fetchLimit = 5
        let pairs = [
            try ObserverPair(Self.descriptor(nil, []), sectioned: false, context: observed),
            try ObserverPair(
                Self.descriptor(#Predicate { $0.rank >= 5 }, [SortDescriptor(\.name)]), sectioned: false,
                context: observed),
            try ObserverPair(
                Self.descriptor(
                    #Predicate { $0.name == "b" || $0.score == nil }, [SortDescriptor(\.rank, order: .reverse)]),
                sectioned: false, context: observed),
            try ObserverPair(
                Self.descriptor(#Predicate { ($0.score ?? 0) > 0.4 }, [SortDescriptor(\.score)]), sectioned: false,
                context: observed),
            try ObserverPair(
                Self.descriptor(
                    #Predicate { $0.rank % 3 == 0 }, [SortDescriptor(\.name, order: .reverse), SortDescriptor(\.rank)]),
                sectioned: false, context: observed),
            try ObserverPair(
                Self.descriptor(#Predicate { $0.name != "d" }, [SortDescriptor(\.rank)]), sectioned: true,
                context: observed),
            try ObserverPair(limited, sectioned: false, context: observed),
        ]
        let observers = pairs.flatMap(\.observers)

        for step in 0..<45 {
            // Alternate writers, so saves by the observers' own context and by another context are both applied.
            let context = step % 3 == 0 ? observed : writer
            let rows = try context.fetch(FetchDescriptor<LiveRow>())
            for _ in 0..<Int.random(in: 0...2, using: &random) { context.insert(Self.randomRow(&random)) }
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                guard let row = rows.randomElement(using: &random) else { break }
                switch Int.random(in: 0..<3, using: &random) {
                case 0: row.rank = Int.random(in: 0..<10, using: &random)
                case 1: row.name = ["a", "b", "c", "d"][Int.random(in: 0..<4, using: &random)]
                default:
                    row.score = Bool.random(using: &random) ? nil : Double(Int.random(in: 0..<10, using: &random)) / 10
                }
            }
            if Int.random(in: 0..<3, using: &random) == 0, let row = rows.randomElement(using: &random) {
                context.delete(row)
            }
            guard context.hasChanges else { continue }
            #expect(try await Self.save(context, observers: observers), "step \(step): not every observer refreshed")

            let fresh = ModelContext(container)
            for (index, pair) in pairs.enumerated() {
                let expected = try fresh.fetch(pair.full.effectiveDescriptor).map(\.persistentModelID)
                #expect(
                    pair.incremental.results.map(\.persistentModelID) == expected, "step \(step), observer \(index)")
                #expect(
                    pair.full.results.map(\.persistentModelID) == expected, "step \(step), observer \(index) (full)")
                #expect(
                    pair.incrementalChanges == pair.fullChanges, "step \(step), observer \(index): change sets differ")
                #expect(
                    pair.incremental.sections?.sectionTitles == pair.full.sections?.sectionTitles,
                    "step \(step), observer \(index)")
            }
        }
        for pair in pairs.dropLast() { #expect(pair.incremental.incrementalRefreshCount > 30) }
        #expect(pairs.last?.incremental.incrementalRefreshCount == 0)
        #expect(pairs.allSatisfy { $0.full.incrementalRefreshCount == 0 })
    }

    @Test(arguments: StoreKind.all) func externalChangesAndUnsavedChangesRefetch(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        let context = ModelContext(container)
        context.insert(LiveRow(name: "a", rank: 1, score: nil))
        try context.save()
        let observer = try ResultsObserver(
            filterBy: #Predicate<LiveRow> { $0.rank > 0 }, sortBy: [SortDescriptor(\.rank)],
            modelContext: context)
        container.notifyChanges(to: LiveRow.self)
        #expect(await Fixtures.eventually { observer.fetchCount == 2 })
        #expect(observer.incrementalRefreshCount == 0)

        // An unsaved change in the observer's context: the refresh fetches (showing it), and so does the next one.
        context.insert(LiveRow(name: "pending", rank: 5, score: nil))
        let other = ModelContext(container)
        other.insert(LiveRow(name: "b", rank: 2, score: nil))
        try other.save()
        #expect(await Fixtures.eventually { observer.fetchCount == 3 })
        #expect(observer.incrementalRefreshCount == 0)
        #expect(observer.results.map(\.name) == ["a", "b", "pending"])
        try context.save()
        #expect(await Fixtures.eventually { observer.fetchCount == 4 })
        #expect(observer.incrementalRefreshCount == 0)

        // Now the results are what the store holds, so the next save is applied incrementally.
        other.insert(LiveRow(name: "c", rank: 0, score: nil))
        other.insert(LiveRow(name: "d", rank: 3, score: nil))
        try other.save()
        #expect(await Fixtures.eventually { observer.fetchCount == 5 })
        #expect(observer.incrementalRefreshCount == 1)
        #expect(observer.results.map(\.name) == ["a", "b", "d", "pending"])
    }

    @Test(arguments: StoreKind.all) func relationshipPredicatesAndSortsRefetch(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, LiveOwner.self, LiveItem.self)
        let writer = ModelContext(container)
        let ann = LiveOwner(name: "Ann")
        writer.insert(ann)
        writer.insert(LiveItem(title: "lamp", owner: ann))
        try writer.save()
        let ofAnn = try ResultsObserver(
            filterBy: #Predicate<LiveItem> { $0.owner?.name == "Ann" },
            sortBy: [SortDescriptor(\.title)], modelContainer: container)
        let byOwner = try ResultsObserver(sortBy: [SortDescriptor(\LiveItem.owner?.name)], modelContainer: container)
        let byTitle = try ResultsObserver(
            filterBy: #Predicate<LiveItem> { $0.title != "" }, sortBy: [SortDescriptor(\.title)],
            modelContainer: container)
        writer.insert(LiveItem(title: "desk", owner: ann))
        try writer.save()
        let observers = [ofAnn, byOwner, byTitle]
        #expect(await LiveFixtures.eventually { observers.allSatisfy { $0.fetchCount == 2 } })
        #expect(observers.allSatisfy { $0.fetchError == nil })
        #expect(observers.map { $0.results.map(\.title) } == [["desk", "lamp"], ["lamp", "desk"], ["desk", "lamp"]])
        #expect(observers.map(\.incrementalRefreshCount) == [0, 0, 1])
    }

    @Test func observersNotShowingAnUpdatedRowWhosePredicateItDoesNotReachReadNothing() async throws {
        let container = try Self.container()
        let writer = ModelContext(container)
        let row = LiveRow(name: "unshown", rank: 100, score: 0.5)
        writer.insert(row)
        for rank in 0..<10 { writer.insert(LiveRow(name: "shown", rank: rank, score: nil)) }
        try writer.save()
        let observed = ModelContext(container)
        let observers = try (0..<10).map { rank in
            try ResultsObserver(
                filterBy: #Predicate<LiveRow> { $0.rank == rank }, sortBy: [SortDescriptor(\.name)],
                modelContext: observed)
        }
        var published = 0
        for observer in observers { observer.onChange = { _ in published += 1 } }
        let sqlite = try #require(container.store as? SQLiteStore)

        // `score` is read by no predicate: the observers decide from the save alone, without a query.
        row.score = 0.75
        try writer.save()
        var executed = sqlite.executedStatementCount
        let before = observers.map(\.incrementalRefreshCount)
        #expect(await LiveFixtures.eventually { zip(observers, before).allSatisfy { $0.incrementalRefreshCount > $1 } })
        #expect(sqlite.executedStatementCount == executed)
        #expect(published == 0)

        // `rank` is: the row is loaded once (one query for the ten observers) and the one it now matches shows it.
        row.rank = 3
        try writer.save()
        executed = sqlite.executedStatementCount
        let counts = observers.map(\.incrementalRefreshCount)
        #expect(await LiveFixtures.eventually { zip(observers, counts).allSatisfy { $0.incrementalRefreshCount > $1 } })
        #expect(sqlite.executedStatementCount == executed + 1)
        #expect(published == 1)
        #expect(observers[3].results.map(\.score) == [nil, 0.75])
    }

    @Test func foreignKeysAreNotAttributes() throws {
        let container = try freshContainer(.sqlite, LiveOwner.self, LiveItem.self)
        let entity = try #require(container.schema.entity(for: LiveItem.self))
        #expect(QueryExpression.isNull(.column("title")).readsOnlyAttributes(of: entity))
        #expect(QueryExpression.collated(.column("title"), .swift).readsOnlyAttributes(of: entity))
        #expect(!QueryExpression.isNull(.column("owner")).readsOnlyAttributes(of: entity))
        #expect(!QueryExpression.or([.constant(true), .isNull(.column("owner"))]).readsOnlyAttributes(of: entity))
    }

    @Test func relationshipFreeConditionsAreRecognised() throws {
        let container = try Self.container()
        let entity = try #require(container.schema.entity(for: LiveRow.self))
        let attributes = QueryExpression.and([
            .compare(.column("rank"), .greater, .value(.integer(3))),
            .function(.coalesce, [.column("score"), .value(.real(0))]),
        ])
        #expect(attributes.readsOnlyAttributes(of: entity))
        #expect(!QueryExpression.equal(.column("missing"), .value(.integer(1))).readsOnlyAttributes(of: entity))
    }
}
