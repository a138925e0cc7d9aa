import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// PostgreSQL through Debian's PgBouncer, started by each test in front of the suite's server: in session mode
/// the store works as on a direct connection (its settings, prepared statements and `LISTEN` live in the session
/// PgBouncer keeps for the client); in transaction mode an open is refused before anything is written.
@Suite("PostgreSQL through PgBouncer", .needsPgBouncer)
struct PgBouncerTests {
    private typealias Fixtures = LiveFixtures

    /// A PgBouncer in `mode` before the suite's server.
    private func bouncer(_ mode: PgBouncerProcess.PoolMode) async throws -> PgBouncerProcess {
        try #require(PgBouncerProcess.isInstalled, "PgBouncer is not installed (apt-get install pgbouncer)")
        return try await PgBouncerProcess.start(in: mode, before: try PostgresTestServer.requiredURL())
    }

    private func container(_ url: URL, _ databaseSchema: String) throws -> ModelContainer {
        try ModelContainer(
            for: Schema([LiveTask.self, LiveNote.self]), migrationPlan: nil,
            configurations: [PostgresConfiguration(url: url, databaseSchema: databaseSchema)])
    }

    @MainActor @Test func sessionModeRunsSavesQueriesHistoryAndLiveResults() async throws {
        let bouncer = try await bouncer(.session)
        // Started from the main actor's thread, which blocks nearly every signal: a PgBouncer that inherited that
        // mask never saw the SIGTERM that stops it, and outlived the test process.
        let blocked = try #require(bouncer.blockedSignals, "PgBouncer's signal mask can't be read")
        #expect(blocked & (1 << (SIGTERM - 1)) == 0, "PgBouncer blocks SIGTERM (SigBlk \(String(blocked, radix: 16)))")
        let databaseSchema = StoreKind.newDatabaseSchema()
        let writing = try container(bouncer.url, databaseSchema)
        let watching = try container(bouncer.url, databaseSchema)
        let observer = try ResultsObserver<LiveTask, Never>(
            filterBy: #Predicate<LiveTask> { $0.priority >= 2 }, sortBy: [SortDescriptor(\LiveTask.priority)],
            modelContainer: watching)

        let context = ModelContext(writing)
        try Fixtures.insert([("low", 1), ("mid", 2), ("high", 3)], into: context)
        // Another container's observer learns of the save through a LISTEN kept by PgBouncer's session.
        #expect(await Fixtures.eventually { observer.results.map(\.title) == ["mid", "high"] })

        let reader = ModelContext(watching)
        let descriptor = FetchDescriptor<LiveTask>(
            predicate: #Predicate<LiveTask> { $0.title.contains("i") },
            sortBy: [SortDescriptor(\LiveTask.priority, order: .reverse)])
        #expect(try reader.fetch(descriptor).map(\.title) == ["high", "mid"])
        #expect(try reader.fetchCount(FetchDescriptor<LiveTask>()) == 3)

        try context.delete(model: LiveTask.self, where: #Predicate<LiveTask> { $0.priority == 1 })
        let mid = try #require(
            try context.fetch(FetchDescriptor<LiveTask>(predicate: #Predicate<LiveTask> { $0.title == "mid" })).first)
        mid.priority = 5
        try context.save()
        #expect(await Fixtures.eventually { observer.results.map(\.title) == ["high", "mid"] })

        let history = try ModelContext(watching).fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.count == 2)
        // The same statements again: prepared once per session, still there on PgBouncer's server connection.
        for _ in 0..<3 { #expect(try ModelContext(writing).fetchCount(FetchDescriptor<LiveTask>()) == 2) }
    }

    /// Off the main actor: the open waits for the check's notification (5 s) before refusing.
    @Test func transactionModeIsRefusedAtOpenBeforeAnythingIsWritten() async throws {
        let bouncer = try await bouncer(.transaction)
        let server = try PostgresTestServer.requiredURL()
        let databaseSchema = StoreKind.newDatabaseSchema()
        let error = #expect(throws: SwiftDataError.self) { try container(bouncer.url, databaseSchema) }?.underlyingError
        #expect(error?.caseName == "storeOpenFailed")
        #expect(error.map { "\($0)" }?.contains("pool_mode = session") == true, "\(String(describing: error))")

        let direct = try PostgresConnection(conninfo: server.absoluteString)
        let schemas = try direct.query(
            "SELECT count(*) FROM pg_namespace WHERE nspname = $1", [.text(databaseSchema)])
        #expect(schemas.int64(row: 0, column: 0) == 0)
    }
}
