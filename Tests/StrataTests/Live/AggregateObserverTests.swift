import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@MainActor
@Suite("AggregateObserver")
struct AggregateObserverTests {
    private typealias Fixtures = LiveFixtures
    private typealias Observer = AggregateObserver<TallyExpense, String, (Int, Int)>

    /// Cents and count per category.
    private static let perCategory = AggregateDescriptor(
        groupBy: \TallyExpense.category, aggregates: .sum(\.cents), .count)

    /// A container over `store`, which the test keeps while other containers open it too.
    private static func container(_ store: TestStore) throws -> ModelContainer {
        try store.container(TallyExpense.self, TallyMerchant.self, LiveNote.self)
    }

    /// A container of its own: in memory on SQLite, a new schema on PostgreSQL.
    private static func container(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, TallyExpense.self, TallyMerchant.self, LiveNote.self)
    }

    /// The groups as text, to compare with what the test expects.
    private static func shown(_ observer: Observer) -> [String] {
        observer.results.map { "\($0.key) \($0.value.0) \($0.value.1)" }
    }

    private static func spend(_ cents: Int, on category: String, in context: ModelContext) throws {
        context.insert(TallyExpense(category: category, kind: .food, cents: cents))
        try context.save()
    }

    @Test(arguments: StoreKind.all) func aSaveInItsOwnContextUpdatesIt(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContext: container.mainContext)
        var published: [[String]] = []
        observer.onChange = { groups in published.append(groups.map { "\($0.key) \($0.value.0) \($0.value.1)" }) }
        #expect(observer.results.isEmpty)
        try Self.spend(250, on: "food", in: container.mainContext)
        #expect(await Fixtures.eventually { Self.shown(observer) == ["food 250 1"] })
        try Self.spend(-50, on: "food", in: container.mainContext)
        try Self.spend(900, on: "rent", in: container.mainContext)
        #expect(await Fixtures.eventually { Self.shown(observer) == ["food 200 2", "rent 900 1"] })
        #expect(published.last == ["food 200 2", "rent 900 1"])
        #expect(observer.fetchError == nil)
    }

    @Test(arguments: StoreKind.all) func aSaveInAnotherContextUpdatesIt(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        try Self.spend(100, on: "food", in: ModelContext(container))
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContainer: container)
        #expect(Self.shown(observer) == ["food 100 1"])
        let other = ModelContext(container)
        try Self.spend(40, on: "travel", in: other)
        #expect(await Fixtures.eventually { Self.shown(observer) == ["food 100 1", "travel 40 1"] })
        // A delete is a change of the totals too.
        let expenses = try other.fetch(FetchDescriptor<TallyExpense>(predicate: #Predicate { $0.category == "food" }))
        for expense in expenses { other.delete(expense) }
        try other.save()
        #expect(await Fixtures.eventually { Self.shown(observer) == ["travel 40 1"] })
    }

    /// On SQLite the second container is another connection to the file, as another process's would be; on
    /// PostgreSQL it stands for another machine (its saves arrive by `NOTIFY` and the history feed).
    @Test(arguments: StoreKind.all) func aSaveThroughAnotherContainerOnTheStoreUpdatesIt(
        _ kind: StoreKind
    ) async throws {
        let store = TestStore(kind)
        let container = try Self.container(store)
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContainer: container)
        let elsewhere = try Self.container(store)
        try Self.spend(700, on: "rent", in: ModelContext(elsewhere))
        #expect(await Fixtures.eventually { Self.shown(observer) == ["rent 700 1"] })
        let context = ModelContext(elsewhere)
        let rent = try #require(try context.fetch(FetchDescriptor<TallyExpense>()).first)
        rent.cents = 650
        try context.save()
        #expect(await Fixtures.eventually { Self.shown(observer) == ["rent 650 1"] })
    }

    @Test(arguments: StoreKind.all) func aSaveOfAModelItDoesntReadDoesntRunItAgain(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContainer: container)
        let runs = observer.fetchCount
        let context = ModelContext(container)
        context.insert(LiveNote(text: "unrelated"))
        try context.save()
        context.insert(TallyMerchant(name: "Corner", city: "Lyon", rating: 4))
        try context.save()
        await Fixtures.settle()
        // Ten poll intervals of SQLite's commit watcher; on PostgreSQL, time for the notification to come back.
        try await Task.sleep(for: SQLiteStore.commitPollInterval * 10)
        #expect(observer.fetchCount == runs)
        try Self.spend(10, on: "food", in: context)
        #expect(await Fixtures.eventually { observer.fetchCount == runs + 1 })
        #expect(Self.shown(observer) == ["food 10 1"])
    }

    @Test(arguments: StoreKind.all) func aSaveThatLeavesTheTotalsAloneRunsItButPublishesNothing(
        _ kind: StoreKind
    ) async throws {
        let container = try Self.container(kind)
        let context = ModelContext(container)
        try Self.spend(100, on: "food", in: context)
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContainer: container)
        var publishes = 0
        observer.onChange = { _ in publishes += 1 }
        let runs = observer.fetchCount
        let expense = try #require(try context.fetch(FetchDescriptor<TallyExpense>()).first)
        expense.date = Date(timeIntervalSinceReferenceDate: 86_400)
        try context.save()
        #expect(await Fixtures.eventually { observer.fetchCount == runs + 1 })
        await Fixtures.settle()
        #expect(publishes == 0)
        #expect(Self.shown(observer) == ["food 100 1"])
    }

    /// Grouped by a to-one path, the totals change when the related model does: the merchant's entity is watched.
    @Test(arguments: StoreKind.all) func aGroupKeyThroughAToOneRelationshipFollowsTheRelatedModels(
        _ kind: StoreKind
    ) async throws {
        let container = try Self.container(kind)
        let context = ModelContext(container)
        let corner = TallyMerchant(name: "Corner", city: "Lyon", rating: 4)
        context.insert(corner)
        context.insert(TallyExpense(category: "food", kind: .food, cents: 30, merchant: corner))
        context.insert(TallyExpense(category: "food", kind: .food, cents: 12))
        try context.save()
        let observer = try AggregateObserver(
            aggregateDescriptor: AggregateDescriptor(groupBy: \TallyExpense.merchant?.city, aggregates: .sum(\.cents)),
            modelContainer: container)
        let shown = { observer.results.map { "\($0.key ?? "none") \($0.value)" } }
        #expect(shown() == ["none 12", "Lyon 30"])
        corner.city = "Paris"
        try context.save()
        #expect(await Fixtures.eventually { shown() == ["none 12", "Paris 30"] })
    }

    @Test(arguments: StoreKind.all) func changesYieldsEachPublishedAnswer(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        let observer = try AggregateObserver(
            aggregateDescriptor: AggregateDescriptor(aggregates: .sum(\TallyExpense.cents)), modelContainer: container)
        #expect(observer.results.map(\.value) == [0])
        var iterator = observer.changes.makeAsyncIterator()
        let context = ModelContext(container)
        try Self.spend(5, on: "food", in: context)
        let first = await iterator.next()
        #expect(first?.map(\.value) == [5])
        try Self.spend(6, on: "rent", in: context)
        let second = await iterator.next()
        #expect(second?.map(\.value) == [11])
    }

    @Test(arguments: StoreKind.all) func settingTheDescriptorComputesAgainAndWatchesItsEntities(
        _ kind: StoreKind
    ) async throws {
        let container = try Self.container(kind)
        let context = ModelContext(container)
        try Self.spend(100, on: "food", in: context)
        try Self.spend(20, on: "rent", in: context)
        let observer = try AggregateObserver(aggregateDescriptor: Self.perCategory, modelContainer: container)
        observer.filterBy = #Predicate { $0.cents > 50 }
        #expect(Self.shown(observer) == ["food 100 1"])
        try Self.spend(60, on: "rent", in: context)
        #expect(await Fixtures.eventually { Self.shown(observer) == ["food 100 1", "rent 60 1"] })
    }

    @Test(arguments: StoreKind.all) func aGroupAppearsWhenItsTotalsMeetTheHavingPredicate(
        _ kind: StoreKind
    ) async throws {
        let container = try Self.container(kind)
        let context = ModelContext(container)
        try Self.spend(100, on: "food", in: context)
        var descriptor = Self.perCategory
        descriptor.havingPredicate = .count >= 2
        let observer = try AggregateObserver(aggregateDescriptor: descriptor, modelContainer: container)
        #expect(observer.results.isEmpty)
        try Self.spend(30, on: "food", in: context)
        #expect(await Fixtures.eventually { Self.shown(observer) == ["food 130 2"] })
    }

    @Test(arguments: StoreKind.all) func aDescriptorItCantComputeThrowsFromTheInitializer(_ kind: StoreKind) throws {
        let container = try Self.container(kind)
        #expect(throws: SwiftDataError.self) {
            _ = try AggregateObserver(
                aggregateDescriptor: AggregateDescriptor(groupBy: \TallyExpense.label, aggregates: .count),
                modelContainer: container)
        }
        #expect(container.liveChanges.subscriberCount == 0)
    }

    @Test(arguments: StoreKind.all) func freeingTheObserverStopsItAndEndsItsChanges(_ kind: StoreKind) async throws {
        let container = try Self.container(kind)
        weak var weakObserver: Observer?
        var observer: Observer? = try AggregateObserver(
            aggregateDescriptor: Self.perCategory, modelContext: container.mainContext)
        weakObserver = observer
        let stream = try #require(observer?.changes)
        let reader = Task { @MainActor in
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        #expect(container.liveChanges.subscriberCount == 1)
        try Self.spend(1, on: "food", in: ModelContext(container))
        #expect(await Fixtures.eventually { observer?.results.count == 1 })
        observer = nil
        #expect(await Fixtures.eventually { weakObserver == nil })
        #expect(await reader.value == 1)
        #expect(container.liveChanges.subscriberCount == 0)
        try Self.spend(2, on: "food", in: ModelContext(container))
        await Fixtures.settle()
    }
}
