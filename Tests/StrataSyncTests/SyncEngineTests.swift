import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

@Model final class SyncNote {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    var count: Int
    var detail: String?

    init(title: String, count: Int = 0, detail: String? = nil) {
        id = UUID()
        self.title = title
        self.count = count
        self.detail = detail
    }
}

@Model final class UnsyncableNote {
    var title: String
    init(title: String) { self.title = title }
}

@Model final class UnpreservedNote {
    @Attribute(.unique) var id: UUID
    init() { id = UUID() }
}

/// Devices, each an SQLite store of its own, and one hub in a new PostgreSQL schema.
struct SyncScenario {
    let hub: PostgresConfiguration
    let directory: URL

    init() throws {
        let url = try #require(PostgresTestServer.url)
        hub = PostgresConfiguration(url: url, databaseSchema: StoreKind.newDatabaseSchema(prefix: "strata_sync_"))
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-sync-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// A device's container of `schema`: a store file of its own.
    func device(_ name: String, _ schema: Schema = Schema([SyncNote.self])) throws -> ModelContainer {
        try ModelContainer(
            for: schema,
            configurations: ModelConfiguration(url: directory.appendingPathComponent("\(name).store")))
    }

    /// An engine for `container` that syncs only when told to, so a test decides the order.
    func engine(
        _ container: ModelContainer, state: SyncEngine.State.Serialization? = nil,
        resolver: (@Sendable (SyncConflict) -> SyncConflict.Resolution)? = nil
    ) throws -> SyncEngine {
        var configuration = SyncEngine.Configuration(
            container: container, hub: hub, stateSerialization: state, conflictResolver: resolver)
        configuration.automaticallySync = false
        return try SyncEngine(configuration)
    }

    /// Two devices, a phone and a laptop, each with an engine of its own.
    struct Devices {
        let phone: ModelContainer
        let laptop: ModelContainer
        let phoneSync: SyncEngine
        let laptopSync: SyncEngine
    }

    func twoDevices() throws -> Devices {
        let phone = try device("phone")
        let laptop = try device("laptop")
        return Devices(phone: phone, laptop: laptop, phoneSync: try engine(phone), laptopSync: try engine(laptop))
    }

    /// Two devices sharing `notes`: inserted on the phone, sent, and fetched by the laptop.
    func twoDevicesSharing(_ notes: [SyncNote]) async throws -> Devices {
        let devices = try twoDevices()
        let context = ModelContext(devices.phone)
        for note in notes { context.insert(note) }
        try context.save()
        try await devices.phoneSync.sendChanges()
        try await devices.laptopSync.fetchChanges()
        return devices
    }

    /// The hub as server code opens it.
    func server(_ schema: Schema = Schema([SyncNote.self])) throws -> ModelContainer {
        try ModelContainer(for: schema, migrationPlan: nil, configurations: [hub])
    }

    /// Every note of a container as `title:count:detail`, sorted.
    static func notes(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<SyncNote>()).map {
            "\($0.title):\($0.count):\($0.detail ?? "-")"
        }.sorted()
    }

    /// Every note of a container as identity and title, sorted.
    static func identities(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<SyncNote>()).map { "\($0.id) \($0.title)" }.sorted()
    }
}

@Suite(
    "StrataSync: sending and fetching attributes",
    .needsPostgreSQL)
struct SyncEngineTests {
    @Test func insertsAndUpdatesTravelBetweenDevicesWithTheirIdentity() async throws {
        let scenario = try SyncScenario()
        let devices = try await scenario.twoDevicesSharing([
            SyncNote(title: "Milk", count: 2), SyncNote(title: "Eggs", count: 12, detail: "free range"),
        ])
        let (phone, laptop, phoneSync, laptopSync) = (
            devices.phone, devices.laptop, devices.phoneSync, devices.laptopSync
        )
        #expect(try SyncScenario.notes(laptop) == ["Eggs:12:free range", "Milk:2:-"])
        #expect(try SyncScenario.identities(laptop) == SyncScenario.identities(phone))
        #expect(try SyncScenario.notes(scenario.server()) == ["Eggs:12:free range", "Milk:2:-"])

        let laptopContext = ModelContext(laptop)
        let milk = try #require(try laptopContext.fetch(FetchDescriptor<SyncNote>()).first { $0.title == "Milk" })
        milk.count = 3
        milk.detail = "oat"
        try laptopContext.save()
        try await laptopSync.sendChanges()
        try await phoneSync.fetchChanges()
        #expect(try SyncScenario.notes(phone) == ["Eggs:12:free range", "Milk:3:oat"])
        // The phone's fetch is not sent back, and fetching again changes nothing.
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()
        #expect(try SyncScenario.notes(laptop) == ["Eggs:12:free range", "Milk:3:oat"])
        #expect(try SyncScenario.notes(scenario.server()) == ["Eggs:12:free range", "Milk:3:oat"])
    }

    @Test func deletesTravelByTheirPreservedIdentity() async throws {
        let scenario = try SyncScenario()
        let devices = try await scenario.twoDevicesSharing(["A", "B", "C"].map { SyncNote(title: $0) })
        let (phone, laptop, phoneSync, laptopSync) = (
            devices.phone, devices.laptop, devices.phoneSync, devices.laptopSync
        )
        let laptopContext = ModelContext(laptop)
        for note in try laptopContext.fetch(FetchDescriptor<SyncNote>()) where note.title == "B" {
            laptopContext.delete(note)
        }
        try laptopContext.save()
        try await laptopSync.sendChanges()
        try await phoneSync.fetchChanges()
        #expect(try SyncScenario.notes(phone) == ["A:0:-", "C:0:-"])
        #expect(try SyncScenario.notes(scenario.server()) == ["A:0:-", "C:0:-"])
    }

    @Test func aBatchSentAgainAfterALostAcknowledgementAppliesOnce() async throws {
        let scenario = try SyncScenario()
        let devices = try scenario.twoDevices()
        let (phone, laptop, phoneSync, laptopSync) = (
            devices.phone, devices.laptop, devices.phoneSync, devices.laptopSync
        )
        let context = ModelContext(phone)
        let note = SyncNote(title: "Milk", count: 1)
        context.insert(note)
        try context.save()
        // The state before the send is what a phone that crashed before keeping the new one starts with.
        let before = await phoneSync.state.serialization
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()
        let laptopContext = ModelContext(laptop)
        try #require(try laptopContext.fetch(FetchDescriptor<SyncNote>()).first).count = 5
        try laptopContext.save()
        try await laptopSync.sendChanges()

        let restarted = try scenario.engine(phone, state: before)
        try await restarted.sendChanges()
        // The replayed insert did not put the old count back, nor add a row.
        #expect(try SyncScenario.notes(scenario.server()) == ["Milk:5:-"])
        #expect(await restarted.state.lastSentTransaction == phoneSync.state.lastSentTransaction)
    }

    @Test func aPropertyChangedHereAndNotSentKeepsItsValueThroughAFetch() async throws {
        let scenario = try SyncScenario()
        let devices = try await scenario.twoDevicesSharing([SyncNote(title: "Milk", count: 1)])
        let (phone, laptop, phoneSync, laptopSync) = (
            devices.phone, devices.laptop, devices.phoneSync, devices.laptopSync
        )
        let context = ModelContext(phone)

        // The laptop changes the count and the detail, sends; the phone changed the count meanwhile, unsent.
        let laptopContext = ModelContext(laptop)
        let onLaptop = try #require(try laptopContext.fetch(FetchDescriptor<SyncNote>()).first)
        onLaptop.count = 7
        onLaptop.detail = "oat"
        try laptopContext.save()
        try await laptopSync.sendChanges()
        let onPhone = try #require(try context.fetch(FetchDescriptor<SyncNote>()).first)
        onPhone.count = 2
        try context.save()

        try await phoneSync.fetchChanges()
        #expect(try SyncScenario.notes(phone) == ["Milk:2:oat"])
        // Sent last, the phone's count wins on the hub and then on the laptop.
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()
        #expect(try SyncScenario.notes(scenario.server()) == ["Milk:2:oat"])
        #expect(try SyncScenario.notes(laptop) == ["Milk:2:oat"])
    }

    @Test func whatServerCodeSavesOnTheHubReachesDevices() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone")
        let phoneSync = try scenario.engine(phone)
        try await phoneSync.fetchChanges()
        let server = ModelContext(try scenario.server())
        server.insert(SyncNote(title: "From the server", count: 9))
        try server.save()
        try await phoneSync.fetchChanges()
        #expect(try SyncScenario.notes(phone) == ["From the server:9:-"])
        let stored = try #require(try server.fetch(FetchDescriptor<SyncNote>()).first)
        server.delete(stored)
        try server.save()
        try await phoneSync.fetchChanges()
        #expect(try SyncScenario.notes(phone) == [])
    }

    @Test func aStateKeptAndGivenBackResumesWhereTheEngineStopped() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone")
        let phoneSync = try scenario.engine(phone)
        let context = ModelContext(phone)
        context.insert(SyncNote(title: "Milk"))
        try context.save()
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()
        let data = try JSONEncoder().encode(await phoneSync.state.serialization)
        let resumed = try scenario.engine(
            phone, state: try JSONDecoder().decode(SyncEngine.State.Serialization.self, from: data))
        #expect(await resumed.state == phoneSync.state)

        let other = try scenario.device("other")
        #expect(throws: SyncError.self) {
            try scenario.engine(other, state: try JSONDecoder().decode(SyncEngine.State.Serialization.self, from: data))
        }
    }
}

@Suite("StrataSync: models that can't be synced")
struct SyncIdentityTests {
    private func refusal(_ type: any PersistentModel.Type) throws -> String {
        let container = try ModelContainer(for: type, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let hub = PostgresConfiguration(url: URL(string: "postgresql://127.0.0.1:1/none")!)
        do {
            _ = try SyncEngine(SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil))
            return "accepted"
        } catch {
            return "\(error)"
        }
    }

    @Test func aModelWithoutAUniqueUUIDIsRefusedBeforeTheHubIsReached() throws {
        let message = try refusal(UnsyncableNote.self)
        #expect(message.hasPrefix("UnsyncableNote has no sync identity: it has no unique, non-optional UUID attribute"))
        #expect(message.contains("@Attribute(.unique, .preserveValueOnDeletion) var id = UUID()"))
    }

    @Test func anIdentityThatIsNotPreservedOnDeletionIsRefused() throws {
        let message = try refusal(UnpreservedNote.self)
        #expect(message.contains("`id` is not `.preserveValueOnDeletion`"))
    }
}

/// The same entity as ``SyncNote`` in a later version of the app: one attribute more.
enum NewerNotes {
    @Model final class SyncNote {
        @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
        var title: String
        var count: Int
        var detail: String?
        var priority: Int = 0

        init(title: String) {
            id = UUID()
            self.title = title
            count = 0
        }
    }
}

@Suite(
    "StrataSync: a device and a hub of different schemas",
    .needsPostgreSQL)
struct SyncSchemaTests {
    @Test func aDeviceWithAnotherSchemaIsRefusedAndLeavesTheHubAsItWas() async throws {
        let scenario = try SyncScenario()
        let server = ModelContext(try scenario.server())
        server.insert(SyncNote(title: "On the hub"))
        try server.save()

        let device = try scenario.device("newer", Schema([NewerNotes.SyncNote.self]))
        let engine = try scenario.engine(device)
        var thrown: SyncError?
        do { try await engine.fetchChanges() } catch let error as SyncError { thrown = error }
        guard case .schemaMismatch(let deviceVersion, let hubVersion, let differences) = thrown else {
            Issue.record("expected a schema mismatch, got \(String(describing: thrown))")
            return
        }
        #expect(deviceVersion == "\(Schema([NewerNotes.SyncNote.self]).version)")
        #expect(hubVersion == "unversioned")
        #expect(differences.contains { $0.contains("priority") })
        #expect(thrown?.description.contains("migrate the hub from server code") == true)
        // The hub was not migrated: server code opening it with its own schema finds no change to make.
        #expect(try SyncScenario.notes(scenario.server()) == ["On the hub:0:-"])
        #expect(try ModelContext(device).fetchCount(FetchDescriptor<NewerNotes.SyncNote>()) == 0)
    }
}
