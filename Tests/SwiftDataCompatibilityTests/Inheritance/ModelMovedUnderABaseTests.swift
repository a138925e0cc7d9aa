import Foundation
import SwiftData
import Testing

// A pet app whose second version moves a stored model under a new base class.

enum MoveSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parrot.self] }
    @Model final class Parrot {
        #Index<Parrot>([\.words])
        var name: String
        var words: Int = 0
        init(name: String) { self.name = name }
    }
}

enum MoveSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Pet.self, Parrot.self] }
    @Model class Pet {
        var name: String
        init(name: String) { self.name = name }
    }
    @Model final class Parrot: Pet {
        #Index<Parrot>([\.words])
        var words: Int = 0
        init(name: String, words: Int) {
            self.words = words
            super.init(name: name)
        }
    }
}

enum MovePlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MoveSchemaV1.self, MoveSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: MoveSchemaV1.self, toVersion: MoveSchemaV2.self)]
    }
}

// The same app's other line: a model that other models' relationships reach can't move, since their foreign keys
// name its old table.
enum ReachedSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Budgie.self, Cage.self] }
    @Model final class Budgie {
        var name: String
        var cage: Cage?
        init(name: String) { self.name = name }
    }
    @Model final class Cage {
        var label: String
        @Relationship(inverse: \Budgie.cage) var budgies: [Budgie] = []
        var favourite: Budgie?
        init(label: String) { self.label = label }
    }
}

enum ReachedSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Animal.self, Budgie.self, Cage.self] }
    @Model class Animal {
        var name: String
        init(name: String) { self.name = name }
    }
    @Model final class Budgie: Animal {
        var cage: Cage?
        override init(name: String) { super.init(name: name) }
    }
    @Model final class Cage {
        var label: String
        @Relationship(inverse: \Budgie.cage) var budgies: [Budgie] = []
        var favourite: Budgie?
        init(label: String) { self.label = label }
    }
}

enum ReachedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [ReachedSchemaV1.self, ReachedSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: ReachedSchemaV1.self, toVersion: ReachedSchemaV2.self)]
    }
}

/// Moving a stored model under a new base class is a lightweight migration: its rows move into the hierarchy's
/// table with their keys, versions and values.
@Suite struct ModelMovedUnderABaseTests {
    @Test(arguments: StoreKind.all) func theRowsMoveIntoTheHierarchysTable(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        let identifier: PersistentIdentifier
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: MoveSchemaV1.self)))
            let polly = MoveSchemaV1.Parrot(name: "Polly")
            polly.words = 12
            context.insert(polly)
            context.insert(MoveSchemaV1.Parrot(name: "Kiwi"))
            try context.save()
            identifier = polly.persistentModelID
        }
        let container = try store.container(Schema(versionedSchema: MoveSchemaV2.self), migrationPlan: MovePlan.self)
        let context = ModelContext(container)
        let pets = try context.fetch(FetchDescriptor<MoveSchemaV2.Pet>(sortBy: [SortDescriptor(\.name)]))
        #expect(pets.map(\.name) == ["Kiwi", "Polly"])
        #expect(pets.allSatisfy { $0 is MoveSchemaV2.Parrot })
        #expect((pets.last as? MoveSchemaV2.Parrot)?.words == 12)
        #expect(pets.last?.persistentModelID.primaryKey == identifier.primaryKey)
        // New models continue after the moved keys.
        context.insert(MoveSchemaV2.Pet(name: "Rex"))
        context.insert(MoveSchemaV2.Parrot(name: "Sky", words: 3))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<MoveSchemaV2.Pet>()) == 4)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<MoveSchemaV2.Parrot>()) == 3)
    }

    @Test(arguments: StoreKind.all) func aModelOthersReachIsRefusedAndLosesNothing(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: ReachedSchemaV1.self)))
            let budgie = ReachedSchemaV1.Budgie(name: "Blue")
            context.insert(budgie)
            budgie.cage = ReachedSchemaV1.Cage(label: "Top")
            try context.save()
        }
        let before = try store.snapshot()
        #expect {
            try store.container(Schema(versionedSchema: ReachedSchemaV2.self), migrationPlan: ReachedPlan.self)
        } throws: { error in
            guard case .migrationRefused(_, let entity, _, let reason) = error as? StrataError else { return false }
            return entity == "Budgie" && reason.contains("subclass of Animal") && reason.contains("relationships")
        }
        #expect(try store.snapshot() == before)
        let budgies = try ModelContext(try store.container(Schema(versionedSchema: ReachedSchemaV1.self))).fetch(
            FetchDescriptor<ReachedSchemaV1.Budgie>())
        #expect(budgies.map { $0.cage?.label } == ["Top"])
    }
}
