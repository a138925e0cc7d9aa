import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

/// A note that belongs to one owner: the PostgreSQL role of the device that made it.
@Model final class SyncOwnedNote {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var owner: String
    var title: String

    init(owner: String, title: String) {
        id = UUID()
        self.owner = owner
        self.title = title
    }
}

@Suite(
    "StrataSync: each device with its own role, PostgreSQL's row-level security keeping owners apart",
    .needsPostgreSQL)
struct SyncRowLevelSecurityTests {
    private let schema = Schema([SyncOwnedNote.self])

    /// The hub prepared by its administrator: the store and sync's tables, two login roles allowed to use them,
    /// and a policy letting each role see and write only rows it owns.
    private func prepareHub(_ scenario: SyncScenario, roles: [String]) async throws {
        let admin = try scenario.engine(try scenario.device("admin", schema))
        try await admin.fetchChanges()
        let url = try #require(PostgresTestServer.url)
        let connection = try PostgresConnection(conninfo: url.absoluteString)
        let namespace = "\"\(scenario.hub.databaseSchema)\""
        for role in roles {
            try connection.execute("DROP ROLE IF EXISTS \(role)")
            try connection.execute("CREATE ROLE \(role) LOGIN PASSWORD 'secret-\(role)'")
            try connection.execute("GRANT USAGE ON SCHEMA \(namespace) TO \(role)")
            try connection.execute(
                "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(namespace) TO \(role)")
            try connection.execute("GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA \(namespace) TO \(role)")
        }
        try connection.execute("ALTER TABLE \(namespace).\"SyncOwnedNote\" ENABLE ROW LEVEL SECURITY")
        try connection.execute(
            "CREATE POLICY own_rows ON \(namespace).\"SyncOwnedNote\" "
                + "USING (owner = current_user) WITH CHECK (owner = current_user)")
    }

    /// The hub's configuration as `role` connects to it.
    private func hub(_ scenario: SyncScenario, as role: String) throws -> PostgresConfiguration {
        let server = try #require(PostgresTestServer.url)
        var components = try #require(URLComponents(url: server, resolvingAgainstBaseURL: false))
        components.user = role
        components.password = "secret-\(role)"
        return PostgresConfiguration(url: try #require(components.url), databaseSchema: scenario.hub.databaseSchema)
    }

    private func engine(_ container: ModelContainer, hub: PostgresConfiguration) throws -> SyncEngine {
        var configuration = SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil)
        configuration.automaticallySync = false
        return try SyncEngine(configuration)
    }

    private func titles(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<SyncOwnedNote>()).map { "\($0.owner):\($0.title)" }.sorted()
    }

    @Test func eachDeviceReadsAndWritesOnlyItsOwnersRows() async throws {
        let scenario = try SyncScenario()
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        let (alice, bob) = ("strata_alice_\(suffix)", "strata_bob_\(suffix)")
        try await prepareHub(scenario, roles: [alice, bob])

        let phone = try scenario.device("alice-phone", schema)
        let laptop = try scenario.device("bob-laptop", schema)
        let phoneSync = try engine(phone, hub: try hub(scenario, as: alice))
        let laptopSync = try engine(laptop, hub: try hub(scenario, as: bob))
        let phoneContext = ModelContext(phone)
        phoneContext.insert(SyncOwnedNote(owner: alice, title: "diary"))
        try phoneContext.save()
        let laptopContext = ModelContext(laptop)
        laptopContext.insert(SyncOwnedNote(owner: bob, title: "taxes"))
        try laptopContext.save()
        try await phoneSync.sendChanges()
        try await laptopSync.sendChanges()
        try await phoneSync.fetchChanges()
        try await laptopSync.fetchChanges()

        #expect(try titles(phone) == ["\(alice):diary"])
        #expect(try titles(laptop) == ["\(bob):taxes"])
        #expect(try titles(scenario.server(schema)) == ["\(alice):diary", "\(bob):taxes"])

        // Bob's device writes a row for Alice: the hub refuses the batch, names why, and applies none of it.
        laptopContext.insert(SyncOwnedNote(owner: bob, title: "receipts"))
        laptopContext.insert(SyncOwnedNote(owner: alice, title: "forged"))
        try laptopContext.save()
        var thrown: SyncError?
        do { try await laptopSync.sendChanges() } catch let error as SyncError { thrown = error }
        #expect(thrown?.description.contains("row-level security") == true, "\(String(describing: thrown))")
        #expect(thrown?.description.contains("secret-") == false, "a password must never be in an error")
        #expect(try titles(scenario.server(schema)) == ["\(alice):diary", "\(bob):taxes"])
        guard case .changesRefused = thrown else {
            Issue.record("expected the hub to refuse the changes, got \(String(describing: thrown))")
            return
        }
        // The device keeps its rows, still pending, and its status says why they are.
        #expect(await eventually { await MainActor.run { laptopSync.status.lastError } == thrown })
        #expect(try titles(laptop) == ["\(alice):forged", "\(bob):receipts", "\(bob):taxes"])
    }
}
