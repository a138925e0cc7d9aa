import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

@MainActor
@Suite("ResultsObserver: changes from other processes")
struct ResultsObserverExternalTests {
    private typealias Fixtures = LiveFixtures

    @Test func commitOnASecondConnectionIsSeen() async throws {
        let (container, url) = try Fixtures.fileContainer()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let tasks = try Fixtures.insert([("a", 1), ("b", 2)], into: ModelContext(container))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        let other = try SQLiteConnection(location: .file(url.path))
        try other.run(
            "UPDATE \"LiveTask\" SET \"priority\" = 5 WHERE \"Z_PK\" = ?",
            [.integer(try #require(tasks[0].persistentModelID.primaryKey))])
        let committed = ContinuousClock.now
        #expect(await Fixtures.eventually { recorder.snapshots.count == 1 })
        let latency = ContinuousClock.now - committed
        // Not asserted: the delivery needs the main actor, which other tests running in parallel can hold for
        // seconds. Alone, the commit is seen within a 10 ms poll interval plus the fetch (the writer records no
        // history, so every observer refetches).
        print("ResultsObserver: another connection's commit seen after \(latency)")
        #expect(observer.results.map(\.title) == ["b", "a"])
        #expect(observer.results.last?.priority == 5)
        #expect(recorder.changes.first?.moves == [ResultsChangeSet.Move(from: 0, to: 1)])
    }

    @Test func insertBySQLite3ProcessIsSeen() async throws {
        let cli = URL(fileURLWithPath: "/usr/bin/sqlite3")
        try #require(FileManager.default.isExecutableFile(atPath: cli.path))
        let (container, url) = try Fixtures.fileContainer()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        let process = try await ChildProcess.run(
            cli, [url.path, "INSERT INTO LiveTask (title, priority, category) VALUES ('from another process', 1, 'x')"])
        let exited = ContinuousClock.now
        #expect(process.terminationStatus == 0, "\(process.output)")
        #expect(await Fixtures.eventually { recorder.snapshots.count == 1 })
        print("ResultsObserver: sqlite3 process's commit seen \(ContinuousClock.now - exited) after it exited")
        #expect(observer.results.map(\.title) == ["from another process"])
        #expect(recorder.changes.first?.insertedIndexes == [0])
    }

    /// The other process is `strata-torture live-writer` on SQLite; on PostgreSQL a second container over the same
    /// schema stands for it (its notifications are the ones another machine's would be).
    @Test(arguments: StoreKind.all) func saveByAnotherStrataProcessArrivesAsExactRows(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(LiveTask.self, LiveNote.self)
        try Fixtures.insert([("here", 1)], into: ModelContext(container))
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: container)
        let recorder = SnapshotRecorder(observer)
        let history = try HistoryObserver(modelContainer: container)
        var transactions = history.transactions.makeAsyncIterator()
        switch kind {
        case .sqlite:
            let binary = try #require(TortureRunTests.tortureBinary())
            let process = try await ChildProcess.run(
                binary,
                [
                    "live-writer", "--store", store.fileURL.path, "--title", "from a process", "--priority", "0",
                    "--author", "widget",
                ])
            #expect(process.terminationStatus == 0, "\(process.output)")
        case .postgres:
            let writer = ModelContext(try store.container(LiveTask.self, LiveNote.self))
            writer.author = "widget"
            try Fixtures.insert([("from a process", 0)], into: writer)
        }
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["from a process", "here"])
        // The other process's save arrives as exact rows: one insertion, at the top. It is read from the history
        // and applied incrementally, unless a notice for a commit that recorded no history (the writer opening the
        // store) came first and its full refresh, running after the save, already read the row; the change set is
        // the same either way.
        #expect(recorder.changes.last?.insertedIndexes == [0])
        #expect(recorder.changes.last?.deletedIndexes.isEmpty == true)
        #expect(await Fixtures.eventually { history.eventCounter == 1 })
        #expect(await transactions.next()?.author == "widget")
    }

    @Test(arguments: StoreKind.all) func ownSavesAreNotReportedTwiceByTheMonitor(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(LiveTask.self, LiveNote.self)
        let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
        let fetchesBefore = observer.fetchCount
        try Fixtures.insert([("a", 1)], into: ModelContext(container))
        #expect(await Fixtures.eventually { observer.results.count == 1 })
        // Ten poll intervals of the SQLite monitor; on PostgreSQL, time for the notification to come back.
        try await Task.sleep(for: SQLiteStore.commitPollInterval * 10)
        #expect(observer.fetchCount == fetchesBefore + 1)
    }
}
