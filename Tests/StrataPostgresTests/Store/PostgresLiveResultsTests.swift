import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// Live results across PostgreSQL instances: the `LISTEN` connection coming back after the server ends it, and the
/// polling fallback for engines without `LISTEN`/`NOTIFY`.
@MainActor
@Suite("ResultsObserver: PostgreSQL change notification", .needsPostgreSQL)
struct PostgresLiveResultsTests {
    private typealias Fixtures = LiveFixtures

    private func container(
        _ store: TestStore, _ notification: PostgresConfiguration.ChangeNotification
    ) throws -> ModelContainer {
        let url = try #require(PostgresTestServer.url)
        let configuration = PostgresConfiguration(
            url: url, databaseSchema: store.databaseSchema, changeNotification: notification)
        return try ModelContainer(
            for: Schema([LiveTask.self, LiveNote.self]), migrationPlan: nil, configurations: [configuration])
    }

    /// The server processes of the connections listening on the store's channel.
    private func listenerProcesses(_ admin: PostgresConnection, _ store: TestStore) throws -> [Int64] {
        let rows = try admin.query(
            "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND position($1 in query) > 0 ORDER BY pid",
            [.text(store.databaseSchema)])
        return (0..<rows.count).map { rows.int64(row: $0, column: 0) }
    }

    @Test func aTerminatedListenerReconnectsAndCatchesUp() async throws {
        let store = TestStore(.postgres)
        let a = try store.container(LiveTask.self, LiveNote.self)
        let writer = ModelContext(try store.container(LiveTask.self, LiveNote.self))
        let observer = try ResultsObserver<LiveTask, Never>(
            sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: a)
        try Fixtures.insert([("before", 1)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 1 })

        let admin = try PostgresConnection(conninfo: try #require(PostgresTestServer.url).absoluteString)
        let listeners = try listenerProcesses(admin, store)
        try #require(listeners.count == 1)
        try admin.query("SELECT pg_terminate_backend($1::integer)", [.integer(listeners[0])])
        #expect(await Fixtures.eventually { (try? listenerProcesses(admin, store)) != listeners })
        // Saved while the listener may still be reconnecting: it catches up from its last transaction.
        let incremental = observer.incrementalRefreshCount
        try Fixtures.insert([("after", 2)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(observer.results.map(\.title) == ["before", "after"])
        #expect(observer.incrementalRefreshCount == incremental + 1)
        #expect(await Fixtures.eventually { (try? listenerProcesses(admin, store))?.count == 1 })
    }

    @Test func aSaveCommittingAfterALaterOneIsStillSeen() async throws {
        let store = TestStore(.postgres)
        let a = try store.container(LiveTask.self, LiveNote.self)
        let c = try store.container(LiveTask.self, LiveNote.self)
        let writer = ModelContext(try store.container(LiveTask.self, LiveNote.self))
        let observer = try ResultsObserver<LiveTask, Never>(
            sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: a)
        let tasks = try Fixtures.insert([("held", 1), ("free", 2)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        let incremental = observer.incrementalRefreshCount
        let url = try #require(PostgresTestServer.url).absoluteString
        let locker = try PostgresConnection(conninfo: url, settings: ["SET search_path TO \"\(store.databaseSchema)\""])
        try locker.execute("BEGIN")
        try locker.query(
            "SELECT 1 FROM \"LiveTask\" WHERE \"Z_PK\" = $1 FOR UPDATE",
            [.integer(try #require(tasks[0].persistentModelID.primaryKey))])
        // C's save takes its history identifier first, then waits for the row (on a thread of its own).
        let heldSave = BackgroundSave(c) { context in
            let held = try context.fetch(FetchDescriptor<LiveTask>(predicate: #Predicate { $0.title == "held" }))
            held.first?.priority = 4
        }
        #expect(try await locker.backendBlockedByThisSession() != nil)
        // A later identifier commits first.
        tasks[1].priority = 0
        try writer.save()
        #expect(await Fixtures.eventually { observer.results.first?.priority == 0 })
        try locker.execute("COMMIT")
        if let error = await heldSave.wait() { throw error }
        #expect(await Fixtures.eventually { observer.results.last?.priority == 4 })
        #expect(observer.results.map(\.title) == ["free", "held"])
        #expect(observer.incrementalRefreshCount == incremental + 2)
    }

    @Test func pollingModeDeliversExactRowsWithoutNotify() async throws {
        let store = TestStore(.postgres)
        let a = try container(store, .polling(interval: .milliseconds(20)))
        let writer = ModelContext(try container(store, .polling(interval: .milliseconds(20))))
        let observer = try ResultsObserver<LiveTask, Never>(
            sortBy: [SortDescriptor(\LiveTask.priority)], modelContainer: a)
        let recorder = SnapshotRecorder(observer)
        let admin = try PostgresConnection(conninfo: try #require(PostgresTestServer.url).absoluteString)
        let tasks = try Fixtures.insert([("a", 1), ("b", 2)], into: writer)
        #expect(await Fixtures.eventually { observer.results.count == 2 })
        #expect(try listenerProcesses(admin, store).isEmpty)
        let incremental = observer.incrementalRefreshCount
        tasks[0].priority = 3
        try writer.save()
        #expect(await Fixtures.eventually { observer.results.map(\.title) == ["b", "a"] })
        #expect(observer.incrementalRefreshCount == incremental + 1)
        #expect(recorder.changes.last?.moves == [ResultsChangeSet.Move(from: 0, to: 1)])
    }
}
