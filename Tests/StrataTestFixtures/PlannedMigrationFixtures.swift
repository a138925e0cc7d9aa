import Foundation
import Strata
import StrataTestSupport

// A cruise line's models through three versions, and the plans that migrate between them.

enum CruiseV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Cruise.self] }

    @Model final class Cruise {
        var name: String
        var sea: String
        init(name: String, sea: String) { self.name = name; self.sea = sea }
    }
}

enum CruiseV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Cruise.self] }

    @Model final class Cruise {
        @Attribute(.unique) var name: String
        var sea: String
        var rating: Int = 0
        init(name: String, sea: String) { self.name = name; self.sea = sea }
    }
}

enum CruiseV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Cruise.self, Port.self] }

    @Model final class Cruise {
        @Attribute(.unique) var name: String
        @Attribute(originalName: "sea") var waters: String
        var rating: Int = 0
        @Relationship(deleteRule: .cascade, inverse: \Port.cruise) var ports: [Port] = []
        init(name: String, waters: String) { self.name = name; self.waters = waters }
    }

    @Model final class Port {
        var city: String
        var cruise: Cruise?
        init(city: String) { self.city = city }
    }
}

enum CruisePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CruiseV1.self, CruiseV2.self, CruiseV3.self] }
    static var stages: [MigrationStage] { [v1toV2, v2toV3] }

    /// The custom stage V1 → V2, without a wait.
    static let v1toV2 = customStage(pausing: 0)

    /// Removes duplicate names before V2 makes `name` unique; then adds one to every rating, so a stage run twice
    /// shows (ratings of 2). Waits `pause` seconds first.
    static func customStage(pausing pause: TimeInterval) -> MigrationStage {
        MigrationStage.custom(
            fromVersion: CruiseV1.self, toVersion: CruiseV2.self,
            willMigrate: { context in
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
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

    static let v2toV3 = MigrationStage.lightweight(fromVersion: CruiseV2.self, toVersion: CruiseV3.self)
}

/// ``CruisePlan`` with a custom stage that first waits 0.2 s: long enough for a second container opening at the same
/// time to reach the store's lock. (Only the test of concurrent opens needs the wait.)
enum ContendedCruisePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { CruisePlan.schemas }
    static var stages: [MigrationStage] { [v1toV2, CruisePlan.v2toV3] }
    static let v1toV2 = CruisePlan.customStage(pausing: 0.2)
}

struct CruiseFailure: Error, Equatable {}

enum FailingCruisePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [CruiseV1.self, CruiseV2.self, CruiseV3.self] }
    static var stages: [MigrationStage] {
        [
            CruisePlan.v1toV2,
            .custom(
                fromVersion: CruiseV2.self, toVersion: CruiseV3.self, willMigrate: { _ in throw CruiseFailure() },
                didMigrate: nil),
        ]
    }
}

enum CruiseFuture: VersionedSchema {
    static let versionIdentifier = Schema.Version(9, 0, 0)
    static var models: [any PersistentModel.Type] { [CruiseV3.Cruise.self, CruiseV3.Port.self] }
}

extension TestStore {
    /// A V1 store holding two cruises named Baltic and one named Aegean.
    func seedCruisesV1() throws {
        let context = ModelContext(try container(Schema(versionedSchema: CruiseV1.self), migrationPlan: nil))
        context.insert(CruiseV1.Cruise(name: "Baltic", sea: "Baltic Sea"))
        context.insert(CruiseV1.Cruise(name: "Baltic", sea: "North Sea"))
        context.insert(CruiseV1.Cruise(name: "Aegean", sea: "Mediterranean"))
        try context.save()
    }
}
