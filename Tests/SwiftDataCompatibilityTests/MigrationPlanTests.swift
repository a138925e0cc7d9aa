import Foundation
import SwiftData
import Testing

// A trips app through three released versions, declared the way SwiftData apps declare them.

enum VoyageSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Voyage.self] }

    @Model final class Voyage {
        var name: String
        var destination: String
        init(name: String, destination: String) { self.name = name; self.destination = destination }
    }
}

enum VoyageSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Voyage.self] }

    @Model final class Voyage {
        @Attribute(.unique) var name: String
        var destination: String
        var rating: Int = 0
        init(name: String, destination: String) { self.name = name; self.destination = destination }
    }
}

enum VoyageSchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Voyage.self, VoyageStop.self] }

    @Model final class Voyage {
        @Attribute(.unique) var name: String
        @Attribute(originalName: "destination") var place: String
        var rating: Int = 0
        @Relationship(deleteRule: .cascade, inverse: \VoyageStop.voyage) var stops: [VoyageStop] = []
        init(name: String, place: String) { self.name = name; self.place = place }
    }

    @Model final class VoyageStop {
        var title: String
        var voyage: Voyage?
        init(title: String) { self.title = title }
    }
}

typealias Voyage = VoyageSchemaV3.Voyage
typealias VoyageStop = VoyageSchemaV3.VoyageStop

enum VoyageMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VoyageSchemaV1.self, VoyageSchemaV2.self, VoyageSchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2, migrateV2toV3] }

    /// Removes duplicate names before V2 makes `name` unique, and rates every voyage afterwards.
    static let migrateV1toV2 = MigrationStage.custom(
        fromVersion: VoyageSchemaV1.self, toVersion: VoyageSchemaV2.self,
        willMigrate: { context in
            var seen = Set<String>()
            for voyage in try context.fetch(
                FetchDescriptor<VoyageSchemaV1.Voyage>(sortBy: [SortDescriptor(\.destination)]))
            {
                if !seen.insert(voyage.name).inserted { context.delete(voyage) }
            }
            try context.save()
        },
        didMigrate: { context in
            for voyage in try context.fetch(FetchDescriptor<VoyageSchemaV2.Voyage>()) { voyage.rating = 5 }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(
        fromVersion: VoyageSchemaV2.self, toVersion: VoyageSchemaV3.self)
}

struct VoyageFailure: Error, Equatable {}

enum FailingVoyageMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VoyageSchemaV1.self, VoyageSchemaV2.self, VoyageSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            VoyageMigrationPlan.migrateV1toV2,
            .custom(
                fromVersion: VoyageSchemaV2.self, toVersion: VoyageSchemaV3.self,
                willMigrate: { _ in throw VoyageFailure() }, didMigrate: nil),
        ]
    }
}

/// A plan that lists only its target version, as a test of one stage writes it.
enum VoyageOneStagePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VoyageSchemaV2.self] }
    static var stages: [MigrationStage] { [VoyageMigrationPlan.migrateV1toV2] }
}

enum VoyageSchemaFuture: VersionedSchema {
    static let versionIdentifier = Schema.Version(9, 0, 0)
    static var models: [any PersistentModel.Type] { [VoyageSchemaV3.Voyage.self, VoyageSchemaV3.VoyageStop.self] }
}

extension CompatibilityStore {
    /// A V1 store holding two voyages named Paris and one named Rome.
    func seedVersion1() throws {
        let container = try self.container(Schema(versionedSchema: VoyageSchemaV1.self))
        let context = ModelContext(container)
        context.insert(VoyageSchemaV1.Voyage(name: "Paris", destination: "France"))
        context.insert(VoyageSchemaV1.Voyage(name: "Paris", destination: "Texas"))
        context.insert(VoyageSchemaV1.Voyage(name: "Rome", destination: "Italy"))
        try context.save()
    }
}

@Suite struct MigrationPlanTests {
    @Test func modelsNestedInAVersionKeepTheirClassNameAsEntityName() {
        #expect(Schema(versionedSchema: VoyageSchemaV3.self).entities.map(\.name) == ["Voyage", "VoyageStop"])
        // The typealias names the newest version's class; its relationships bring VoyageStop along.
        #expect(Schema([Voyage.self]).entities.map(\.name) == ["Voyage", "VoyageStop"])
    }

    @Test(arguments: StoreKind.all) func aVersion1StoreMigratesThroughEveryStageToVersion3(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        try store.seedVersion1()
        let container = try store.container(
            Schema([Voyage.self, VoyageStop.self]), migrationPlan: VoyageMigrationPlan.self)
        let context = ModelContext(container)
        let voyages = try context.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        #expect(voyages.map(\.name) == ["Paris", "Rome"])
        #expect(voyages.map(\.place) == ["France", "Italy"])
        #expect(voyages.map(\.rating) == [5, 5])
        let stop = VoyageStop(title: "Louvre")
        context.insert(stop)
        stop.voyage = voyages[0]
        try context.save()

        let reopened = ModelContext(
            try store.container(
                Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self))
        let paris = try #require(
            try reopened.fetch(FetchDescriptor<Voyage>(predicate: #Predicate { $0.name == "Paris" })).first)
        #expect(paris.stops.map(\.title) == ["Louvre"])
    }

    @Test(arguments: StoreKind.all) func aStageFromAVersionThePlanDoesntListRuns(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        try store.seedVersion1()
        let container = try store.container(
            Schema(versionedSchema: VoyageSchemaV2.self), migrationPlan: VoyageOneStagePlan.self)
        let voyages = try ModelContext(container).fetch(
            FetchDescriptor<VoyageSchemaV2.Voyage>(sortBy: [SortDescriptor(\.name)]))
        #expect(voyages.map(\.name) == ["Paris", "Rome"])
        #expect(voyages.map(\.rating) == [5, 5])
    }

    @Test(arguments: StoreKind.all) func anUnversionedStoreOfTheFirstVersionsModelsMigratesToo(_ kind: StoreKind) throws
    {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(VoyageSchemaV1.Voyage.self))
            context.insert(VoyageSchemaV1.Voyage(name: "Oslo", destination: "Norway"))
            try context.save()
        }
        let context = ModelContext(
            try store.container(
                Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self))
        #expect(try context.fetch(FetchDescriptor<Voyage>()).map(\.place) == ["Norway"])
    }

    @Test(arguments: StoreKind.all) func aThrowingWillMigrateLeavesTheFileUnchangedAndSurfacesItsError(
        _ kind: StoreKind
    ) throws {
        let store = CompatibilityStore(kind)
        try store.seedVersion1()
        let before = try store.snapshot()
        #expect(throws: VoyageFailure()) {
            try store.container(
                Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: FailingVoyageMigrationPlan.self)
        }
        #expect(try store.snapshot() == before)
        let old = ModelContext(try store.container(Schema(versionedSchema: VoyageSchemaV1.self)))
        #expect(try old.fetchCount(FetchDescriptor<VoyageSchemaV1.Voyage>()) == 3)
    }

    @Test(arguments: StoreKind.all) func aStoreNewerThanThePlanIsRefusedNamingBothVersions(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        _ = try store.container(Schema(versionedSchema: VoyageSchemaFuture.self))
        let before = try store.snapshot()
        do {
            _ = try store.container(
                Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self)
            Issue.record("a store at version 9.0.0 opened with a plan ending at 3.0.0")
        } catch let error as SwiftDataError {
            #expect(error.description.contains("9.0.0"))
            #expect(error.description.contains("1.0.0, 2.0.0, 3.0.0"))
        }
        #expect(try store.snapshot() == before)
    }

    @Test(arguments: StoreKind.all) func twoContainersWithDifferentModelSetsShareOneStore(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let voyages = ModelContext(try store.container(VoyageSchemaV1.Voyage.self))
        voyages.insert(VoyageSchemaV1.Voyage(name: "Lima", destination: "Peru"))
        try voyages.save()
        let notes = ModelContext(try store.container(CompatibilityNote.self))
        notes.insert(CompatibilityNote(text: "pack light"))
        try notes.save()
        let again = ModelContext(try store.container(VoyageSchemaV1.Voyage.self))
        #expect(try again.fetch(FetchDescriptor<VoyageSchemaV1.Voyage>()).map(\.name) == ["Lima"])
        #expect(try notes.fetch(FetchDescriptor<CompatibilityNote>()).map(\.text) == ["pack light"])
    }

    @Test(arguments: StoreKind.all) func aDryRunListsEveryStageItsChangesAndSQLWithoutTouchingTheFile(
        _ kind: StoreKind
    ) throws {
        let store = CompatibilityStore(kind)
        try store.seedVersion1()
        let before = try store.snapshot()
        let steps = try ModelContainer.migrationSteps(
            for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self,
            configurations: [try store.configuration()])
        #expect(steps.map(\.kind) == [.custom, .lightweight])
        #expect(steps.map(\.toVersion) == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(steps[0].changes.map(\.description).contains("add Voyage.rating: Int = 0"))
        #expect(steps[0].checks.contains { $0.contains("GROUP BY \"name\"") })
        #expect(steps[1].changes.map(\.kind).contains(.renameProperty))
        #expect(steps[1].sql.contains { $0.hasPrefix("CREATE TABLE \"VoyageStop\"") })
        #expect(try store.snapshot() == before)
    }
}
