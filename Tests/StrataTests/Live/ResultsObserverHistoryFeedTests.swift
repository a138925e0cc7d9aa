import Foundation
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// Two containers on one store: what container B saves reaches container A's observers through the history feed
/// (SQLite's data version, PostgreSQL's `LISTEN`/`NOTIFY` or polling), as exact rows.
@MainActor
@Suite("ResultsObserver: saves of other containers through the history feed")
struct ResultsObserverHistoryFeedTests {
    private typealias Fixtures = LiveFixtures

    /// Container A with an observer of every task by priority, container B on the same store, and tasks saved by
    /// B that the observer shows.
    @MainActor private struct TwoContainers {
        /// Kept: the SQLite file is removed when it is released.
        let store: TestStore
        let a: ModelContainer
        let b: ModelContainer
        let observer: ResultsObserver<LiveTask, Never>
        let recorder: SnapshotRecorder
        let writer: ModelContext
        let tasks: [LiveTask]
        /// The observer's incremental refreshes once it shows `tasks`.
        let incrementalRefreshes: Int

        init(_ store: TestStore, tasks: [(String, Int)]) async throws {
            self.store = store
            a = try store.container(LiveTask.self, LiveNote.self)
            b = try store.container(LiveTask.self, LiveNote.self)
            observer = try ResultsObserver<LiveTask, Never>(
                sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: a)
            recorder = SnapshotRecorder(observer)
            writer = ModelContext(b)
            self.tasks = try Fixtures.insert(tasks, into: writer)
            let observer = observer
            #expect(await Fixtures.eventually { observer.results.count == tasks.count })
            incrementalRefreshes = observer.incrementalRefreshCount
        }
    }

    @Test(arguments: StoreKind.all)
    func insertsOfAnotherContainerArriveAsExactRows(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("first", 1), ("third", 3)])
        try Fixtures.insert([("second", 2)], into: setup.writer)
        #expect(await Fixtures.eventually { setup.observer.results.count == 3 })
        #expect(setup.observer.results.map(\.title) == ["first", "second", "third"])
        #expect(setup.observer.incrementalRefreshCount == setup.incrementalRefreshes + 1)
        #expect(setup.recorder.changes.last?.insertedIndexes == [1])
        #expect(setup.recorder.changes.last?.deletedIndexes == [])
    }

    @Test(arguments: StoreKind.all)
    func updatesOfAnotherContainerReloadTheRegisteredModels(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("a", 1), ("b", 2), ("c", 3)])
        let observer = setup.observer
        let shownA = try #require(observer.results.first)
        let shownC = try #require(observer.results.last)
        setup.tasks[0].priority = 9
        setup.tasks[1].title = "b renamed"
        try setup.writer.save()
        #expect(await Fixtures.eventually { observer.results.map(\.title) == ["b renamed", "c", "a"] })
        // The same models, holding B's values: only the saved rows were read again.
        #expect(observer.results.last === shownA)
        #expect(shownA.priority == 9)
        #expect(observer.results[1] === shownC)
        #expect(observer.incrementalRefreshCount == setup.incrementalRefreshes + 1)
        let changes = try #require(setup.recorder.changes.last)
        #expect(changes.insertedIndexes == [] && changes.deletedIndexes == [])
        #expect(changes.moves == [ResultsChangeSet.Move(from: 0, to: 2)])
        #expect(Set(changes.updatedIndexes) == [0])
    }

    @Test(arguments: StoreKind.all)
    func deletesOfAnotherContainerRemoveTheRows(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("a", 1), ("b", 2), ("c", 3)])
        let observer = setup.observer
        let shownB = observer.results[1]
        setup.writer.delete(setup.tasks[1])
        try setup.writer.save()
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["a", "c"])
        #expect(observer.incrementalRefreshCount == setup.incrementalRefreshes + 1)
        #expect(setup.recorder.changes.last?.deletedIndexes == [1])
        #expect(shownB.isDeleted)
    }

    @Test(arguments: StoreKind.all)
    func ownSavesAreNotAnnouncedAgainByTheFeed(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("theirs", 1)])
        let observer = setup.observer
        try Fixtures.insert([("mine", 2)], into: ModelContext(setup.a))
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        // B's save wakes the feed, which reads A's transaction too and must leave it out.
        try Fixtures.insert([("theirs again", 3)], into: setup.writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        let fetches = observer.fetchCount
        try await Task.sleep(for: .milliseconds(300))
        #expect(observer.fetchCount == fetches)
        // The first fetch, then one refresh per save.
        #expect(observer.fetchCount == 4)
    }

    @Test(arguments: StoreKind.all)
    func aBurstOfSavesElsewhereIsReadIncrementally(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("first", 0)])
        let fetches = setup.observer.fetchCount
        // Saves land while the feed reads the history; every one is read from it, none makes observers refetch.
        for number in 1...100 {
            try Fixtures.insert([("task \(number)", number)], into: setup.writer)
            if number % 4 == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(await Fixtures.eventually { setup.observer.results.count == 101 })
        #expect(
            setup.observer.fetchCount - fetches == setup.observer.incrementalRefreshCount - setup.incrementalRefreshes)
    }

    @Test(arguments: StoreKind.all)
    func anotherContainersSaveMergedWithAnOwnSaveStillReloads(_ kind: StoreKind) async throws {
        let setup = try await TwoContainers(TestStore(kind), tasks: [("a", 1), ("b", 2)])
        let observer = setup.observer
        let shownA = observer.results[0]
        // A's own save waits for the main actor, which doesn't yield while B saves and the feed posts B's save:
        // both arrive as one event, and A's models must still take B's values.
        observer.modelContext.insert(LiveTask(title: "mine", priority: 3))
        try observer.modelContext.save()
        setup.tasks[0].title = "a renamed"
        try setup.writer.save()
        usleep(300_000)
        #expect(await Fixtures.eventually { observer.results.count == 3 && shownA.title == "a renamed" })
    }

    @Test func aWriterWithoutHistoryFallsBackToAFullRefresh() async throws {
        let setup = try await TwoContainers(TestStore(.sqlite), tasks: [("a", 1)])
        try #require(setup.b.store as? SQLiteStore).suspendHistoryRecording(true)
        try Fixtures.insert([("no history", 2)], into: setup.writer)
        #expect(await Fixtures.eventually { setup.observer.results.count == 2 })
        #expect(setup.observer.incrementalRefreshCount == setup.incrementalRefreshes)
    }

    @Test func historyDeletedPastTheFeedsPositionFallsBackToAFullRefresh() async throws {
        let setup = try await TwoContainers(TestStore(.sqlite), tasks: [("a", 1)])
        let (observer, writer) = (setup.observer, setup.writer)
        // A's watcher waits on A's connection while B saves and deletes the history it would read.
        try #require(setup.a.store as? SQLiteStore).withConnection { _ in
            try Fixtures.insert([("expired", 2)], into: writer)
            try writer.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["a", "expired"])
        #expect(observer.incrementalRefreshCount == setup.incrementalRefreshes)
        // The feed starts again from the newest transaction: the next save is incremental.
        try Fixtures.insert([("after", 3)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        #expect(observer.incrementalRefreshCount == setup.incrementalRefreshes + 1)
    }

    @Test(arguments: StoreKind.all)
    func historyObserverSeesAnotherContainersSave(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let a = try store.container(LiveTask.self, LiveNote.self)
        let b = try store.container(LiveTask.self, LiveNote.self)
        let observer = try HistoryObserver(observedModels: [LiveTask.self], modelContainer: a)
        var stream = observer.transactions.makeAsyncIterator()
        let writer = ModelContext(b)
        writer.author = "widget"
        try Fixtures.insert([("from b", 1)], into: writer)
        #expect(await Fixtures.eventually { observer.eventCounter == 1 })
        let transaction = await stream.next()
        #expect(transaction?.author == "widget")
        #expect(transaction?.changes.count == 1)
    }
}
