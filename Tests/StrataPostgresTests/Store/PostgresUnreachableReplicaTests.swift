import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// A read replica that doesn't answer leaves reads to the primary at once, and is left alone for a while instead of
/// making every read wait for it.
@Suite("PostgreSQL read replicas: a standby that is down")
struct PostgresUnreachableReplicaTests {
    @Test(.needsPostgreSQL) func readsGoToThePrimaryWithoutWaitingForADownStandby() throws {
        let url = try PostgresTestServer.requiredURL()
        let schema = "strata_test_" + UUID().uuidString.prefix(12).lowercased()
        PostgresTestServer.dropAtExit(schema)
        var configuration = PostgresConfiguration(url: url, databaseSchema: schema)
        // Nothing listens on the port: connecting fails at once.
        configuration.readReplicas = [
            URL(string: "postgresql://postgres@127.0.0.1:\(PostgresTestServer.freePort())/postgres?connect_timeout=2")!
        ]
        configuration.maximumReplicaWait = .seconds(20)
        let container = try ModelContainer(
            for: Schema([Book.self]), migrationPlan: nil, configurations: [configuration])
        let context = ModelContext(container)
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try context.save()

        let start = ContinuousClock.now
        for _ in 0..<10 { #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 1) }
        // Waiting for the standby would take 20 s per read.
        #expect(ContinuousClock.now - start < .seconds(20))
        let store = try #require(container.store as? PostgresStore)
        #expect(store.replicaReadCounts.replica == 0 && store.replicaReadCounts.primary == 10)
    }
}
