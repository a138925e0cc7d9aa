import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite(
    "PostgreSQL: a busy pool and a full server give clear errors, and work resumes when connections free up",
    .needsPostgreSQL)
struct PostgresConnectionLimitTests {
    @Test("Every pooled connection busy: a caller waits up to maximumConnectionWait, then fails naming the pool's size")
    func busyPoolFailsAfterItsWait() throws {
        let url = try PostgresTestServer.requiredURL()
        let schema = "pool_wait_\(UUID().uuidString.prefix(8).lowercased())"
        PostgresTestServer.dropAtExit(schema)
        var configuration = PostgresConfiguration(url: url, databaseSchema: schema, maximumConnections: 1)
        configuration.maximumConnectionWait = .milliseconds(300)
        let container = try ModelContainer(
            for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
        let store = try #require(container.store as? PostgresStore)
        let context = ModelContext(container)
        let started = ContinuousClock.now
        // The pool's one connection is held here, so the fetch inside can only wait for it.
        let error = try store.pool.withConnection { _ in
            try #require(throws: StrataError.self) { try context.fetch(FetchDescriptor<Dossier>()) }
        }
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(300) && waited < .seconds(5), "waited \(waited)")
        #expect(error.caseName == "storeFailure")
        #expect("\(error)".contains("the pool's only connection stayed busy"), "\(error)")
        #expect("\(error)".contains("maximumConnections = 1"), "\(error)")
        // The connection is back: the same fetch runs.
        #expect(try context.fetch(FetchDescriptor<Dossier>()).isEmpty)
    }

    @Test(
        "The server's max_connections reached: opening and saving fail with a clear error, and recover once one frees",
        .needsPostgreSQLBinaries)
    func fullServerFailsClearlyThenRecovers() async throws {
        // Room for the store's open (its pool of 3 and its listener) beside backends still exiting from `pg_ctl
        // -w start`'s readiness checks; the other clients below take whatever is left.
        let cluster = try #require(
            try await ThrowawayPostgresCluster.make(settings: [
                "max_connections = 6", "superuser_reserved_connections = 0",
            ]))
        let configuration = PostgresConfiguration(url: cluster.url(), databaseSchema: "full", maximumConnections: 3)
        let container = try ModelContainer(
            for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Dossier(title: "before", rating: 1))
        try context.save()
        let store = try #require(container.store as? PostgresStore)

        // Other clients take every connection the server has left; the pool holds one idle.
        var others: [PostgresConnection] = []
        while let connection = try? PostgresConnection(conninfo: cluster.url().absoluteString) {
            others.append(connection)
        }
        #expect(!others.isEmpty)
        let openError = try #require(
            try #require(throws: SwiftDataError.self) {
                try ModelContainer(for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
            }.underlyingError)
        #expect(openError.caseName == "storeOpenFailed")
        #expect("\(openError)".contains("max_connections is reached"), "\(openError)")
        // A save needing a new connection while every one the pool has open is held (the open may have used one
        // or two; the pool may make a third, which the full server refuses).
        let held = store.pool.openConnectionCount
        #expect((1...2).contains(held), "the pool has \(held) connections open")
        let saveError = try holdingConnections(held, of: store.pool) {
            context.insert(Dossier(title: "while full", rating: 2))
            return try #require(throws: StrataError.self) { try context.save() }
        }
        #expect("\(saveError)".contains("max_connections is reached"), "\(saveError)")

        others.removeAll()
        // The server frees the slots as those backends exit.
        for _ in 0..<100 where (try? PostgresConnection(conninfo: cluster.url().absoluteString)) == nil {
            try await Task.sleep(for: .milliseconds(20))
        }
        try context.save()
        let titles = try ModelContext(
            try ModelContainer(for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
        )
        .fetch(FetchDescriptor<Dossier>(sortBy: [SortDescriptor(\.title)])).map(\.title)
        #expect(titles == ["before", "while full"])
        try await cluster.stop()
    }

    /// Runs `body` while `count` of the pool's connections are handed out, so the pool must connect anew to serve
    /// anything else.
    private func holdingConnections<T>(
        _ count: Int, of pool: PostgresConnectionPool, _ body: () throws -> T
    ) throws
        -> T
    {
        guard count > 0 else { return try body() }
        return try pool.withConnection { _ in try holdingConnections(count - 1, of: pool, body) }
    }
}
