import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Planned migrations on every store")
struct PlannedMigrationTests {
    private typealias Cruise = CruiseV3.Cruise
    private typealias Port = CruiseV3.Port

    @Test("A V1 store migrates through a custom and a lightweight stage to V3, in one go", arguments: StoreKind.all)
    func migratesThroughEveryStage(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seedCruisesV1()
        let context = ModelContext(
            try store.container(Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self))
        let cruises = try context.fetch(FetchDescriptor<Cruise>(sortBy: [SortDescriptor(\.name)]))
        #expect(cruises.map(\.name) == ["Aegean", "Baltic"])
        #expect(cruises.map(\.waters) == ["Mediterranean", "Baltic Sea"])
        #expect(cruises.map(\.rating) == [1, 1])
        let port = Port(city: "Tallinn")
        context.insert(port)
        port.cruise = cruises[1]
        try context.save()

        let reopened = ModelContext(
            try store.container(Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self))
        let baltic = try #require(
            try reopened.fetch(FetchDescriptor<Cruise>(predicate: #Predicate { $0.name == "Baltic" })).first)
        #expect(baltic.ports.map(\.city) == ["Tallinn"])
        #expect(baltic.rating == 1)
    }

    @Test("A throwing willMigrate surfaces its error and leaves the store as it was", arguments: StoreKind.all)
    func throwingStageRollsBack(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seedCruisesV1()
        let before = try store.snapshot()
        #expect(throws: CruiseFailure()) {
            try store.container(Schema(versionedSchema: CruiseV3.self), migrationPlan: FailingCruisePlan.self)
        }
        #expect(try store.snapshot() == before)
        let old = ModelContext(try store.container(Schema(versionedSchema: CruiseV1.self), migrationPlan: nil))
        #expect(try old.fetchCount(FetchDescriptor<CruiseV1.Cruise>()) == 3)
    }

    @Test("A store newer than the plan is refused naming both versions; nothing changes", arguments: StoreKind.all)
    func newerStoreIsRefused(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        _ = try store.container(Schema(versionedSchema: CruiseFuture.self), migrationPlan: nil)
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self)
        }?.underlyingError
        #expect(error?.caseName == "unknownStoreVersion")
        #expect(error?.description.contains("9.0.0") == true)
        #expect(error?.description.contains("1.0.0, 2.0.0, 3.0.0") == true)
        #expect(try store.snapshot() == before)
    }

    @Test(
        "Stored data a stage can't carry (duplicates under a new constraint, without the custom stage) is refused",
        arguments: StoreKind.all)
    func duplicatesAreRefused(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seedCruisesV1()
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(Schema(versionedSchema: CruiseV2.self), migrationPlan: nil)
        }?.underlyingError
        #expect(error?.caseName == "migrationRefused")
        #expect(error?.description.contains("\"Baltic\"") == true)
        #expect(try store.snapshot() == before)
    }

    @Test(
        "Four containers opening one store at once from four threads migrate it once; both then work",
        arguments: StoreKind.all)
    func concurrentOpensMigrateOnce(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        try store.seedCruisesV1()
        let configuration = try store.configuration()
        // Three of the openers wait for the one migrating: on threads of their own, leaving the cooperative pool alone.
        let containers = try await onOwnThread {
            let outcomes = Mutex<[Result<ModelContainer, any Error>]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let outcome = Result {
                    try ModelContainer(
                        for: Schema(versionedSchema: CruiseV3.self), migrationPlan: ContendedCruisePlan.self,
                        configurations: [configuration])
                }
                outcomes.withLock { $0.append(outcome) }
            }
            return try outcomes.withLock { try $0.map { try $0.get() } }
        }
        #expect(containers.count == 4)
        for container in containers {
            let cruises = try ModelContext(container).fetch(FetchDescriptor<Cruise>(sortBy: [SortDescriptor(\.name)]))
            // didMigrate adds one to every rating: 2 would mean the stage ran twice.
            #expect(cruises.map(\.rating) == [1, 1])
        }
        guard kind == .sqlite else { return }
        // One backup, of the store as it was (regression: every opener wrote it to the same file at once, failing
        // with a disk I/O error, and a late copy could be of the migrated store).
        #expect(store.file.backups() == [".backup-1.0.0"])
        let directory = store.fileURL.deletingLastPathComponent().path
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).filter {
                $0.hasPrefix(store.fileURL.lastPathComponent + ".partial")
            } == [])
        let backup = URL(fileURLWithPath: store.fileURL.path + ".backup-1.0.0")
        let old = ModelContext(
            try ModelContainer(
                for: Schema(versionedSchema: CruiseV1.self),
                configurations: ModelConfiguration(url: backup, allowsSave: false)))
        #expect(try old.fetchCount(FetchDescriptor<CruiseV1.Cruise>()) == 3)
    }

    @Test("A dry run lists every stage, its changes, checks and SQL, and changes nothing", arguments: StoreKind.all)
    func dryRun(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seedCruisesV1()
        let before = try store.snapshot()
        let steps = try ModelContainer.migrationSteps(
            for: Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self,
            configurations: [try store.configuration()])
        #expect(steps.map(\.kind) == [.custom, .lightweight])
        #expect(steps.map(\.toVersion) == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(steps.first?.changes.map(\.description).contains("add Cruise.rating: Int = 0") == true)
        #expect(steps.first?.checks.contains { $0.contains("GROUP BY \"name\"") } == true)
        #expect(steps.last?.changes.map(\.kind).contains(.renameProperty) == true)
        #expect(steps.last?.sql.contains { $0.hasPrefix("CREATE TABLE \"Port\"") } == true)
        #expect(try store.snapshot() == before)
        // Opening it runs what the dry run listed; afterwards there is nothing left to do.
        _ = try store.container(Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self)
        #expect(
            try ModelContainer.migrationSteps(
                for: Schema(versionedSchema: CruiseV3.self), migrationPlan: CruisePlan.self,
                configurations: [try store.configuration()]
            ).isEmpty)
    }
}
