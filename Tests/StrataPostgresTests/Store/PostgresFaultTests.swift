import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("PostgreSQL: a server restarting, a connection dropped, credentials kept out of errors")
struct PostgresFaultTests {
    /// Everything an app might print of an error.
    private func printed(_ error: any Error) -> String {
        [String(describing: error), String(reflecting: error), error.localizedDescription].joined(separator: "\n")
    }

    @Test(
        "The server stops and starts again: saves meanwhile fail and write nothing; the next operation reconnects by itself",
        .needsPostgreSQL, .needsPostgreSQLBinaries)
    func serverRestart() async throws {
        let cluster = try #require(try await ThrowawayPostgresCluster.make())
        let secret = "s3cret-pw-\(UUID().uuidString.prefix(6))"
        let configuration = PostgresConfiguration(url: cluster.url(password: secret), databaseSchema: "restart")
        let context = ModelContext(
            try ModelContainer(for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration]))
        context.insert(Dossier(title: "before", rating: 1))
        try context.save()

        try await cluster.stop()
        context.insert(Dossier(title: "while down", rating: 2))
        let saveError = #expect(throws: StrataError.self) { try context.save() }
        let fetchError = #expect(throws: StrataError.self) { try context.fetchCount(FetchDescriptor<Dossier>()) }
        for error in [saveError, fetchError].compactMap({ $0 }) {
            #expect(!printed(error).contains(secret))
        }

        try await cluster.start()
        // The pool's connections died with the server: the next read connects again without being asked.
        #expect(try ModelContext(context.container).fetch(FetchDescriptor<Dossier>()).map(\.title) == ["before"])
        // The failed save kept its changes; saving again writes them.
        try context.save()
        let titles = try ModelContext(context.container).fetch(
            FetchDescriptor<Dossier>(sortBy: [SortDescriptor(\.title)])
        ).map(\.title)
        #expect(titles == ["before", "while down"])
        try await cluster.stop()
    }

    @Test(
        "A connection ended mid-save: that save fails, nothing of it is written, the next save reconnects",
        .needsPostgreSQL)
    func connectionEndedMidSave() async throws {
        let store = TestStore(.postgres)
        try store.seed(Dossier.self) { context in
            context.insert(Dossier(title: "a", rating: 0))
            context.insert(Dossier(title: "b", rating: 0))
        }
        let container = try store.container(Schema([Dossier.self]))
        // Holds the second row, so the save stops there, after updating the first.
        let other = try store.sessionLocking(dossier: "b")
        let save = BackgroundSave(container) { context in
            for dossier in try context.fetch(FetchDescriptor<Dossier>()) { dossier.title += "!" }
            context.insert(Dossier(title: "c", rating: 3))
        }
        // Only the save waiting for this session's lock (tests run in parallel).
        let blocked = try #require(try await other.backendBlockedByThisSession())
        let ended =
            try other.query("SELECT pg_terminate_backend($1::integer)", [.integer(blocked)]).text(row: 0, column: 0)
            == "t"
        #expect(ended)
        let error = try #require(await save.wait())
        try other.execute("ROLLBACK")
        #expect(error is StrataError)
        let stored = try store.reopen(Dossier.self).fetch(FetchDescriptor<Dossier>(sortBy: [SortDescriptor(\.title)]))
        #expect(stored.map(\.title) == ["a", "b"])
        let context = ModelContext(container)
        context.insert(Dossier(title: "d", rating: 4))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Dossier>()) == 3)
    }

    @Test("A password in the URL appears in no error, nor in the configuration's description")
    func credentialsStayOut() throws {
        let secret = "s3cret-pw-\(UUID().uuidString.prefix(6))"
        // Nothing listens on this port.
        let url = URL(
            string:
                "postgresql://app:\(secret)@127.0.0.1:\(PostgresTestServer.freePort())/app?password=\(secret)&connect_timeout=2"
        )!
        let configuration = PostgresConfiguration(url: url)
        let error = #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema([Dossier.self]), migrationPlan: nil, configurations: [configuration])
        }?.underlyingError
        #expect(error?.caseName == "storeOpenFailed")
        #expect(error.map(printed)?.contains(secret) == false)
        #expect(error.map(printed)?.contains("app:***@127.0.0.1") == true)
        for text in [String(describing: configuration), String(reflecting: configuration), configuration.redactedURL] {
            #expect(!text.contains(secret), "\(text)")
        }
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains(secret))
    }
}
