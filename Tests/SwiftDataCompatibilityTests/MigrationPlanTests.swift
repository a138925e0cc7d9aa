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
            for voyage in try context.fetch(FetchDescriptor<VoyageSchemaV1.Voyage>(sortBy: [SortDescriptor(\.destination)])) {
                if !seen.insert(voyage.name).inserted { context.delete(voyage) }
            }
            try context.save()
        },
        didMigrate: { context in
            for voyage in try context.fetch(FetchDescriptor<VoyageSchemaV2.Voyage>()) { voyage.rating = 5 }
            try context.save()
        })

    static let migrateV2toV3 = MigrationStage.lightweight(fromVersion: VoyageSchemaV2.self, toVersion: VoyageSchemaV3.self)
}

struct VoyageFailure: Error, Equatable {}

enum FailingVoyageMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [VoyageSchemaV1.self, VoyageSchemaV2.self, VoyageSchemaV3.self] }
    static var stages: [MigrationStage] {
        [
            VoyageMigrationPlan.migrateV1toV2,
            .custom(fromVersion: VoyageSchemaV2.self, toVersion: VoyageSchemaV3.self,
                    willMigrate: { _ in throw VoyageFailure() }, didMigrate: nil),
        ]
    }
}

enum VoyageSchemaFuture: VersionedSchema {
    static let versionIdentifier = Schema.Version(9, 0, 0)
    static var models: [any PersistentModel.Type] { [VoyageSchemaV3.Voyage.self, VoyageSchemaV3.VoyageStop.self] }
}

/// A store file in the temporary directory, removed with its companions and backups.
final class VoyageStoreFile {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("voyages-\(UUID().uuidString).store")

    deinit {
        let directory = url.deletingLastPathComponent().path
        for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where file.hasPrefix(url.lastPathComponent) {
            try? FileManager.default.removeItem(atPath: directory + "/" + file)
        }
    }

    var bytes: Data { FileManager.default.contents(atPath: url.path) ?? Data() }

    /// A V1 store holding two voyages named Paris and one named Rome.
    func seedVersion1() throws {
        let container = try ModelContainer(for: Schema(versionedSchema: VoyageSchemaV1.self), configurations: ModelConfiguration(url: url))
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

    @Test func aVersion1StoreMigratesThroughEveryStageToVersion3() throws {
        let file = VoyageStoreFile()
        try file.seedVersion1()
        let container = try ModelContainer(
            for: Voyage.self, VoyageStop.self, migrationPlan: VoyageMigrationPlan.self,
            configurations: ModelConfiguration(url: file.url))
        let context = ModelContext(container)
        let voyages = try context.fetch(FetchDescriptor<Voyage>(sortBy: [SortDescriptor(\.name)]))
        #expect(voyages.map(\.name) == ["Paris", "Rome"])
        #expect(voyages.map(\.place) == ["France", "Italy"])
        #expect(voyages.map(\.rating) == [5, 5])
        let stop = VoyageStop(title: "Louvre")
        context.insert(stop)
        stop.voyage = voyages[0]
        try context.save()

        let reopened = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self,
            configurations: ModelConfiguration(url: file.url)))
        let paris = try #require(try reopened.fetch(FetchDescriptor<Voyage>(predicate: #Predicate { $0.name == "Paris" })).first)
        #expect(paris.stops.map(\.title) == ["Louvre"])
    }

    @Test func anUnversionedStoreOfTheFirstVersionsModelsMigratesToo() throws {
        let file = VoyageStoreFile()
        do {
            let context = ModelContext(try ModelContainer(for: VoyageSchemaV1.Voyage.self, configurations: ModelConfiguration(url: file.url)))
            context.insert(VoyageSchemaV1.Voyage(name: "Oslo", destination: "Norway"))
            try context.save()
        }
        let context = ModelContext(try ModelContainer(
            for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self,
            configurations: [ModelConfiguration(url: file.url)]))
        #expect(try context.fetch(FetchDescriptor<Voyage>()).map(\.place) == ["Norway"])
    }

    @Test func aThrowingWillMigrateLeavesTheFileUnchangedAndSurfacesItsError() throws {
        let file = VoyageStoreFile()
        try file.seedVersion1()
        let before = file.bytes
        #expect(throws: VoyageFailure()) {
            try ModelContainer(
                for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: FailingVoyageMigrationPlan.self,
                configurations: ModelConfiguration(url: file.url))
        }
        #expect(file.bytes == before)
        let old = ModelContext(try ModelContainer(for: Schema(versionedSchema: VoyageSchemaV1.self), configurations: ModelConfiguration(url: file.url)))
        #expect(try old.fetchCount(FetchDescriptor<VoyageSchemaV1.Voyage>()) == 3)
    }

    @Test func aStoreNewerThanThePlanIsRefusedNamingBothVersions() throws {
        let file = VoyageStoreFile()
        _ = try ModelContainer(for: Schema(versionedSchema: VoyageSchemaFuture.self), configurations: ModelConfiguration(url: file.url))
        let before = file.bytes
        do {
            _ = try ModelContainer(
                for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self,
                configurations: ModelConfiguration(url: file.url))
            Issue.record("a store at version 9.0.0 opened with a plan ending at 3.0.0")
        } catch let error as StrataError {
            #expect(error.description.contains("9.0.0"))
            #expect(error.description.contains("1.0.0, 2.0.0, 3.0.0"))
        }
        #expect(file.bytes == before)
    }

    @Test func twoContainersWithDifferentModelSetsShareOneStore() throws {
        let file = VoyageStoreFile()
        let voyages = ModelContext(try ModelContainer(for: VoyageSchemaV1.Voyage.self, configurations: ModelConfiguration(url: file.url)))
        voyages.insert(VoyageSchemaV1.Voyage(name: "Lima", destination: "Peru"))
        try voyages.save()
        let notes = ModelContext(try ModelContainer(for: CompatibilityNote.self, configurations: ModelConfiguration(url: file.url)))
        notes.insert(CompatibilityNote(text: "pack light"))
        try notes.save()
        let again = ModelContext(try ModelContainer(for: VoyageSchemaV1.Voyage.self, configurations: ModelConfiguration(url: file.url)))
        #expect(try again.fetch(FetchDescriptor<VoyageSchemaV1.Voyage>()).map(\.name) == ["Lima"])
        #expect(try notes.fetch(FetchDescriptor<CompatibilityNote>()).map(\.text) == ["pack light"])
    }

    @Test func aDryRunListsEveryStageItsChangesAndSQLWithoutTouchingTheFile() throws {
        let file = VoyageStoreFile()
        try file.seedVersion1()
        let before = file.bytes
        let steps = try ModelContainer.migrationSteps(
            for: Schema(versionedSchema: VoyageSchemaV3.self), migrationPlan: VoyageMigrationPlan.self,
            configurations: ModelConfiguration(url: file.url))
        #expect(steps.map(\.kind) == [.custom, .lightweight])
        #expect(steps.map(\.toVersion) == [Schema.Version(2, 0, 0), Schema.Version(3, 0, 0)])
        #expect(steps[0].changes.map(\.description).contains("add Voyage.rating: Int = 0"))
        #expect(steps[0].checks.contains { $0.contains("GROUP BY \"name\"") })
        #expect(steps[1].changes.map(\.kind).contains(.renameProperty))
        #expect(steps[1].sql.contains { $0.hasPrefix("CREATE TABLE \"VoyageStop\"") })
        #expect(file.bytes == before)
    }
}
