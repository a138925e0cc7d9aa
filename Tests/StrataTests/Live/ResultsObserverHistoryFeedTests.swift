import Foundation
@testable import Strata
@testable import StrataPostgres
import Testing

/// Two containers on one store: what container B saves reaches container A's observers through the history feed
/// (SQLite's data version, PostgreSQL's `LISTEN`/`NOTIFY` or polling), as exact rows.
@MainActor
@Suite("ResultsObserver: saves of other containers through the history feed")
struct ResultsObserverHistoryFeedTests {
    private typealias Fixtures = LiveFixtures

    /// Container A with an observer of every task by priority, and container B on the same store.
    private func twoContainers(_ store: TestStore) throws -> (a: ModelContainer, b: ModelContainer, observer: ResultsObserver<LiveTask, Never>) {
        let a = try store.container(LiveTask.self, LiveNote.self)
        let b = try store.container(LiveTask.self, LiveNote.self)
        let observer = try ResultsObserver<LiveTask, Never>(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: a)
        return (a, b, observer)
    }

    @Test(arguments: StoreKind.all)
    func insertsOfAnotherContainerArriveAsExactRows(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let (_, b, observer) = try twoContainers(store)
        let recorder = SnapshotRecorder(observer)
        let writer = ModelContext(b)
        try Fixtures.insert([("first", 1), ("third", 3)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        let incremental = observer.incrementalRefreshCount
        try Fixtures.insert([("second", 2)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        #expect(observer.results.map(\.title) == ["first", "second", "third"])
        #expect(observer.incrementalRefreshCount == incremental + 1)
        #expect(recorder.changes.last?.insertedIndexes == [1])
        #expect(recorder.changes.last?.deletedIndexes == [])
    }

    @Test(arguments: StoreKind.all)
    func updatesOfAnotherContainerReloadTheRegisteredModels(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let (_, b, observer) = try twoContainers(store)
        let recorder = SnapshotRecorder(observer)
        let writer = ModelContext(b)
        let tasks = try Fixtures.insert([("a", 1), ("b", 2), ("c", 3)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        let shownA = try #require(observer.results.first)
        let shownC = try #require(observer.results.last)
        let incremental = observer.incrementalRefreshCount
        tasks[0].priority = 9
        tasks[1].title = "b renamed"
        try writer.save()
        #expect(await Fixtures.eventually { observer.results.map(\.title) == ["b renamed", "c", "a"] })
        // The same models, holding B's values: only the saved rows were read again.
        #expect(observer.results.last === shownA)
        #expect(shownA.priority == 9)
        #expect(observer.results[1] === shownC)
        #expect(observer.incrementalRefreshCount == incremental + 1)
        let changes = try #require(recorder.changes.last)
        #expect(changes.insertedIndexes == [] && changes.deletedIndexes == [])
        #expect(changes.moves == [ResultsChangeSet.Move(from: 0, to: 2)])
        #expect(Set(changes.updatedIndexes) == [0])
    }

    @Test(arguments: StoreKind.all)
    func deletesOfAnotherContainerRemoveTheRows(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let (_, b, observer) = try twoContainers(store)
        let recorder = SnapshotRecorder(observer)
        let writer = ModelContext(b)
        let tasks = try Fixtures.insert([("a", 1), ("b", 2), ("c", 3)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        let shownB = observer.results[1]
        let incremental = observer.incrementalRefreshCount
        writer.delete(tasks[1])
        try writer.save()
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["a", "c"])
        #expect(observer.incrementalRefreshCount == incremental + 1)
        #expect(recorder.changes.last?.deletedIndexes == [1])
        #expect(shownB.isDeleted)
    }

    @Test(arguments: StoreKind.all)
    func ownSavesAreNotAnnouncedAgainByTheFeed(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let (a, b, observer) = try twoContainers(store)
        try Fixtures.insert([("mine", 1)], into: ModelContext(a))
        #expect(await Fixtures.eventually { observer.results.count == 1 })
        // B's save wakes the feed, which reads A's transaction too and must leave it out.
        try Fixtures.insert([("theirs", 2)], into: ModelContext(b))
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        let fetches = observer.fetchCount
        try await Task.sleep(for: .milliseconds(300))
        #expect(observer.fetchCount == fetches)
        #expect(observer.fetchCount == 3)
    }

    @Test func aWriterWithoutHistoryFallsBackToAFullRefresh() async throws {
        let store = TestStore(.sqlite)
        let (_, b, observer) = try twoContainers(store)
        let writer = ModelContext(b)
        try Fixtures.insert([("a", 1)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 1 })
        let incremental = observer.incrementalRefreshCount
        try #require(b.store as? SQLiteStore).suspendHistoryRecording(true)
        try Fixtures.insert([("no history", 2)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.incrementalRefreshCount == incremental)
    }

    @Test func historyDeletedPastTheFeedsPositionFallsBackToAFullRefresh() async throws {
        let store = TestStore(.sqlite)
        let (a, b, observer) = try twoContainers(store)
        let writer = ModelContext(b)
        try Fixtures.insert([("a", 1)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 1 })
        let incremental = observer.incrementalRefreshCount
        // A's watcher waits on A's connection while B saves and deletes the history it would read.
        try #require(a.store as? SQLiteStore).withConnection { _ in
            try Fixtures.insert([("expired", 2)], into: writer)
            try writer.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        }
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["a", "expired"])
        #expect(observer.incrementalRefreshCount == incremental)
        // The feed starts again from the newest transaction: the next save is incremental.
        try Fixtures.insert([("after", 3)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 3 })
        #expect(observer.incrementalRefreshCount == incremental + 1)
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
