import Foundation
import SwiftData
import Testing

// An aviary app through three versions: a single model, then a subclass of it, then an attribute added to the
// subclass and one renamed (which makes SQLite rebuild the hierarchy's table).

enum AviarySchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Creature.self] }

    @Model class Creature {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum AviarySchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Creature.self, Bird.self] }

    @Model class Creature {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Bird: Creature {
        var wingspan: Double = 0
        init(name: String, wingspan: Double) {
            self.wingspan = wingspan
            super.init(name: name)
        }
    }
}

enum AviarySchemaV3: VersionedSchema {
    static let versionIdentifier = Schema.Version(3, 0, 0)
    static var models: [any PersistentModel.Type] { [Creature.self, Bird.self] }

    @Model class Creature {
        var name: String
        init(name: String) { self.name = name }
    }

    @Model final class Bird: Creature {
        @Attribute(originalName: "wingspan") var span: Double = 0
        var canFly = true
        init(name: String, span: Double) {
            self.span = span
            super.init(name: name)
        }
    }
}

/// The plan the app's second release ships.
enum AviaryMigrationPlanV2: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [AviarySchemaV1.self, AviarySchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: AviarySchemaV1.self, toVersion: AviarySchemaV2.self)]
    }
}

/// The plan the app's third release ships.
enum AviaryMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] {
        [AviarySchemaV1.self, AviarySchemaV2.self, AviarySchemaV3.self]
    }
    static var stages: [MigrationStage] {
        [
            .lightweight(fromVersion: AviarySchemaV1.self, toVersion: AviarySchemaV2.self),
            .lightweight(fromVersion: AviarySchemaV2.self, toVersion: AviarySchemaV3.self),
        ]
    }
}

/// Hierarchy migrations SwiftData calls lightweight: adding a subclass, and adding or renaming an attribute of one.
@Suite struct InheritanceMigrationTests {
    @Test(arguments: StoreKind.all) func addingASubclassAndItsAttributeKeepsEveryRow(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: AviarySchemaV1.self)))
            context.insert(AviarySchemaV1.Creature(name: "Rex"))
            try context.save()
        }
        do {
            let container = try store.container(
                Schema(versionedSchema: AviarySchemaV2.self), migrationPlan: AviaryMigrationPlanV2.self)
            let context = ModelContext(container)
            let all = try context.fetch(FetchDescriptor<AviarySchemaV2.Creature>())
            #expect(all.map(\.name) == ["Rex"])
            #expect(all.first is AviarySchemaV2.Bird == false)
            context.insert(AviarySchemaV2.Bird(name: "Kiwi", wingspan: 0.3))
            try context.save()
            let birds = try ModelContext(container).fetch(FetchDescriptor<AviarySchemaV2.Bird>())
            #expect(birds.map(\.wingspan) == [0.3])
        }
        let container = try store.container(
            Schema(versionedSchema: AviarySchemaV3.self), migrationPlan: AviaryMigrationPlan.self)
        let context = ModelContext(container)
        let creatures = try context.fetch(
            FetchDescriptor<AviarySchemaV3.Creature>(sortBy: [SortDescriptor(\.name)]))
        #expect(creatures.map(\.name) == ["Kiwi", "Rex"])
        let kiwi = try #require(creatures.first as? AviarySchemaV3.Bird)
        #expect(kiwi.span == 0.3)
        #expect(kiwi.canFly)
        #expect(try context.fetchCount(FetchDescriptor<AviarySchemaV3.Bird>()) == 1)
    }
}
