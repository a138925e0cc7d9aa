import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// ``CruisePlan`` whose custom stage, on its first run only, tells the test it has begun and then waits for the
/// test's word: the primary is killed while the migration's transaction is open.
enum FailoverCruisePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { CruisePlan.schemas }
    static var stages: [MigrationStage] { [v1toV2, CruisePlan.v2toV3] }

    static let begun = DispatchSemaphore(value: 0)
    static let resume = DispatchSemaphore(value: 0)
    private static let waitsOnce = Atomic<Bool>(true)

    static let v1toV2 = MigrationStage.custom(
        fromVersion: CruiseV1.self, toVersion: CruiseV2.self,
        willMigrate: { context in
            if waitsOnce.exchange(false, ordering: .relaxed) {
                begun.signal()
                resume.wait()
            }
            var seen = Set<String>()
            for cruise in try context.fetch(FetchDescriptor<CruiseV1.Cruise>(sortBy: [SortDescriptor(\.sea)])) {
                if !seen.insert(cruise.name).inserted { context.delete(cruise) }
            }
            try context.save()
        },
        didMigrate: { context in
            for cruise in try context.fetch(FetchDescriptor<CruiseV2.Cruise>()) { cruise.rating += 1 }
            try context.save()
        })
}

/// A migration under way when the primary dies: it runs in one transaction with its stages, and the standby is
/// synchronous, so the promoted standby holds either the old store or the migrated one, never a part. Slow (two
/// clusters of its own): runs when `STRATA_FAILOVER_TESTS=1`, as `.ci/run` sets it.
@Suite("PostgreSQL failover during a migration", .enabled(if: TestTier.runsFailoverTests), .serialized)
struct PostgresMigrationFailoverTests {
    @Test("A migration cut off by the primary's death leaves the old store, and runs whole on the new primary")
    func migrationInterruptedByFailover() async throws {
        let clusters = try #require(try await ReplicatedPostgresClusters.make())
        let configuration = PostgresConfiguration(url: clusters.url, databaseSchema: "migrating")
        let v1 = ModelContext(
            try ModelContainer(
                for: Schema(versionedSchema: CruiseV1.self), migrationPlan: nil, configurations: [configuration]))
        for (name, sea) in [("Fjords", "Norwegian"), ("Isles", "Aegean"), ("Fjords", "Baltic")] {
            v1.insert(CruiseV1.Cruise(name: name, sea: sea))
        }
        try v1.save()

        let migrating = Task {
            try await onOwnThread { () throws -> Void in
                _ = try ModelContainer(
                    for: Schema(versionedSchema: CruiseV3.self), migrationPlan: FailoverCruisePlan.self,
                    configurations: [configuration])
            }
        }
        let begun = await onOwnThread { FailoverCruisePlan.begun.wait(timeout: .now() + 30) }
        try #require(begun == .success, "the migration's custom stage never ran")
        do {
            try await clusters.primary.stop(.immediate)
        } catch {
            FailoverCruisePlan.resume.signal()
            throw error
        }
        FailoverCruisePlan.resume.signal()
        let outcome = await migrating.result
        #expect("the migration whose server died must fail") { try outcome.get() } throws: { StrataError($0) != nil }
        try await clusters.standby.promote()

        // The new primary holds the store as it was before the migration.
        let old = ModelContext(
            try ModelContainer(
                for: Schema(versionedSchema: CruiseV1.self), migrationPlan: nil, configurations: [configuration]))
        let before = try old.fetch(FetchDescriptor<CruiseV1.Cruise>(sortBy: [SortDescriptor(\.sea)]))
        #expect(before.map(\.sea) == ["Aegean", "Baltic", "Norwegian"])

        // Opened again, the whole migration runs once: duplicates removed, each rating raised once.
        let migrated = ModelContext(
            try ModelContainer(
                for: Schema(versionedSchema: CruiseV3.self), migrationPlan: FailoverCruisePlan.self,
                configurations: [configuration]))
        let cruises = try migrated.fetch(FetchDescriptor<CruiseV3.Cruise>(sortBy: [SortDescriptor(\.name)]))
        #expect(cruises.map(\.name) == ["Fjords", "Isles"])
        #expect(cruises.map(\.rating) == [1, 1])
    }
}
