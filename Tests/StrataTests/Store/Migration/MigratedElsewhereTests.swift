import Foundation
import StrataPostgres
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("A store migrated by another container")
struct MigratedElsewhereTests {
    @Test(
        "A container still on the old models gets storeMigrated on its next fetch and save, not wrong data",
        arguments: StoreKind.all)
    func oldModelsAreToldTheStoreMoved(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4))
        }
        let old = try store.reopen(TripBase.Trip.self)
        #expect(try old.fetchCount(FetchDescriptor<TripBase.Trip>()) == 1)
        let new = try store.reopen(TripRenamed.Trip.self)
        #expect(try new.fetch(FetchDescriptor<TripRenamed.Trip>()).map(\.title) == ["Lisbon"])

        let fetchError = #expect(throws: StrataError.self) { try old.fetch(FetchDescriptor<TripBase.Trip>()) }
        #expect(fetchError?.caseName == "storeMigrated")
        old.insert(TripBase.Trip(name: "Oslo", days: 2))
        let saveError = #expect(throws: StrataError.self) { try old.save() }
        #expect(saveError?.caseName == "storeMigrated")
        #expect(saveError?.description.contains("migrated to version") == true)
        #expect(try new.fetchCount(FetchDescriptor<TripRenamed.Trip>()) == 1)
    }

    /// A save that follows the container's own last save skips reading the schema, unless something committed in
    /// between: a migration by another container is a commit.
    @Test(
        "A container whose last save came just before another migrated the store can't save",
        arguments: StoreKind.all)
    func savedJustBeforeTheMigration(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { $0.insert(TripBase.Trip(name: "Lisbon", days: 4)) }
        let old = try store.reopen(TripBase.Trip.self)
        for name in ["Porto", "Faro"] {
            old.insert(TripBase.Trip(name: name, days: 3))
            try old.save()
        }
        let new = try store.reopen(TripRenamed.Trip.self)
        #expect(try new.fetchCount(FetchDescriptor<TripRenamed.Trip>()) == 3)
        old.insert(TripBase.Trip(name: "Oslo", days: 2))
        let error = #expect(throws: StrataError.self) { try old.save() }
        #expect(error?.caseName == "storeMigrated")
    }

    @Test(
        "Another container adding its own entity doesn't disturb one whose tables are unchanged",
        arguments: StoreKind.all)
    func unrelatedEntityIsFine(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4))
        }
        let trips = try store.reopen(TripBase.Trip.self)
        let tags = try store.reopen(TripTagsOnly.Tag.self)
        tags.insert(TripTagsOnly.Tag(label: "coast"))
        try tags.save()
        trips.insert(TripBase.Trip(name: "Oslo", days: 2))
        try trips.save()
        #expect(try trips.fetchCount(FetchDescriptor<TripBase.Trip>()) == 2)
    }

    @Test(
        "A store of model subclasses isn't taken for migrated when another container adds its own entity",
        arguments: StoreKind.all)
    func unrelatedEntityBesideAHierarchy(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(ElsewhereVehicle.self, ElsewhereTruck.self) { context in
            context.insert(ElsewhereTruck(name: "Hauler", axles: 3))
        }
        let vehicles = try store.reopen(ElsewhereVehicle.self, ElsewhereTruck.self)
        let tags = try store.reopen(TripTagsOnly.Tag.self)
        tags.insert(TripTagsOnly.Tag(label: "fleet"))
        try tags.save()
        vehicles.insert(ElsewhereTruck(name: "Tipper", axles: 2))
        try vehicles.save()
        #expect(try vehicles.fetchCount(FetchDescriptor<ElsewhereVehicle>()) == 2)
    }

    @Test(
        "A migration waits for another connection's write transaction, then migrates what it committed",
        arguments: StoreKind.all)
    func migrationWaitsForAWriter(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4))
        }
        let locked = DispatchSemaphore(value: 0)
        let (path, url, schema) = (store.fileURL.path, PostgresTestServer.url, store.databaseSchema)
        let insert = "INSERT INTO \"Trip\" (\"name\", \"days\") VALUES ('Oslo', 2)"
        let writer = Thread {
            switch kind {
            case .sqlite:
                guard let connection = try? SQLiteConnection(location: .file(path)) else { _ = locked.signal(); return }
                try? connection.execute("BEGIN IMMEDIATE; " + insert)
                locked.signal()
                Thread.sleep(forTimeInterval: 0.2)
                try? connection.execute("COMMIT")
            case .postgres:
                let settings = ["SET search_path TO \"\(schema)\""]
                guard let url,
                    let connection = try? PostgresConnection(conninfo: url.absoluteString, settings: settings)
                else { _ = locked.signal(); return }
                try? connection.execute("BEGIN; " + insert)
                locked.signal()
                Thread.sleep(forTimeInterval: 0.2)
                try? connection.execute("COMMIT")
            }
        }
        writer.start()
        // The waits, for the writer's lock and then for its commit, are on threads of their own.
        await onOwnThread { locked.wait() }
        let configuration = try store.configuration()
        let container = try await onOwnThread {
            try ModelContainer(
                for: Schema([TripAddedDefault.Trip.self]), migrationPlan: nil, configurations: [configuration])
        }
        let context = ModelContext(container)
        let trips = try context.fetch(FetchDescriptor<TripAddedDefault.Trip>(sortBy: [SortDescriptor(\.name)]))
        #expect(trips.map(\.name) == ["Lisbon", "Oslo"])
        #expect(trips.map(\.rating) == [3, 3])
    }
}

@Model class ElsewhereVehicle {
    var name: String
    init(name: String) { self.name = name }
}

@Model final class ElsewhereTruck: ElsewhereVehicle {
    var axles: Int = 2
    init(name: String, axles: Int) {
        self.axles = axles
        super.init(name: name)
    }
}
