import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// `PostgresConfiguration.usesAdvisoryLocks = false` (engines without advisory locks, such as CockroachDB): the
/// metadata's row lock and the open's transaction guard concurrent opens instead. PostgreSQL only.
@Suite("PostgreSQL: opening without advisory locks", .needsPostgreSQL)
struct PostgresMigrationLockTests {
    /// The store's configuration without advisory locks.
    private func configuration(_ store: TestStore) throws -> PostgresConfiguration {
        var configuration = try #require(try store.configuration() as? PostgresConfiguration)
        configuration.usesAdvisoryLocks = false
        return configuration
    }

    /// Opens `count` containers at once from as many threads.
    private func openTogether(
        _ count: Int, _ open: @escaping @Sendable () throws -> ModelContainer
    ) throws -> [ModelContainer] {
        let outcomes = Mutex<[Result<ModelContainer, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: count) { _ in
            let outcome = Result { try open() }
            outcomes.withLock { $0.append(outcome) }
        }
        return try outcomes.withLock { try $0.map { try $0.get() } }
    }

    @Test("Four containers opening one store at once migrate it once")
    func concurrentOpensMigrateOnce() throws {
        let store = TestStore(.postgres)
        let configuration = try configuration(store)
        try store.seedCruisesV1()
        let containers = try openTogether(4) {
            try ModelContainer(
                for: Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self,
                configurations: [configuration])
        }
        #expect(containers.count == 4)
        for container in containers {
            let cruises = try ModelContext(container).fetch(
                FetchDescriptor<CruiseV3.Cruise>(sortBy: [SortDescriptor(\.name)]))
            // didMigrate adds one to every rating: 2 would mean the stage ran twice.
            #expect(cruises.map(\.rating) == [1, 1])
        }
    }

    @Test("Four containers creating one store at once create it once: one identifier, and each saves into it")
    func concurrentCreatesCreateOnce() throws {
        let store = TestStore(.postgres)
        let configuration = try configuration(store)
        let containers = try openTogether(4) {
            try ModelContainer(for: Schema([CatalogBook.self]), migrationPlan: nil, configurations: [configuration])
        }
        #expect(Set(containers.compactMap { ($0.store as? PostgresStore)?.identifier }).count == 1)
        for (index, container) in containers.enumerated() {
            let context = ModelContext(container)
            context.insert(CatalogBook(isbn: "\(index)", title: "book \(index)"))
            try context.save()
        }
        #expect(try ModelContext(containers[0]).fetchCount(FetchDescriptor<CatalogBook>()) == 4)
    }

    @Test("The open takes no advisory lock: it opens while another session holds the store's")
    func opensWithoutTheAdvisoryLock() throws {
        let store = TestStore(.postgres)
        var configuration = try configuration(store)
        let url = try PostgresTestServer.requiredURL()
        _ = try store.container(CatalogBook.self)
        let holder = try PostgresConnection(conninfo: url.absoluteString)
        try holder.query("SELECT pg_advisory_lock(hashtext('strata'), hashtext($1))", [.text(store.databaseSchema)])
        defer { _ = try? holder.query("SELECT pg_advisory_unlock_all()", []) }
        // With the lock, the open would wait for the holder until the timeout cancels it.
        configuration.statementTimeout = .seconds(10)
        let context = ModelContext(
            try ModelContainer(for: Schema([CatalogBook.self]), migrationPlan: nil, configurations: [configuration]))
        context.insert(CatalogBook(isbn: "1", title: "opened"))
        try context.save()
        configuration.usesAdvisoryLocks = true
        configuration.statementTimeout = .milliseconds(500)
        #expect(throws: SwiftDataError.self) {
            try ModelContainer(for: Schema([CatalogBook.self]), migrationPlan: nil, configurations: [configuration])
        }
    }
}
