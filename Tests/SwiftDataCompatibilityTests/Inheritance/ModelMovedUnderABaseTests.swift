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

// The same app's other line: a model that other models' relationships reach (a to-many's inverse, a to-one of
// another model's) moves with them.
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

// A model in many-to-many relationships, with itself and with another model, moves with their join tables.
enum JoinedSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Finch.self, Perch.self] }
    @Model final class Finch {
        var name: String
        @Relationship(inverse: \Perch.finches) var perches: [Perch] = []
        var friends: [Finch] = []
        init(name: String) { self.name = name }
    }
    @Model final class Perch {
        var label: String
        var finches: [Finch] = []
        init(label: String) { self.label = label }
    }
}

enum JoinedSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Bird.self, Finch.self, Perch.self] }
    @Model class Bird {
        var name: String
        init(name: String) { self.name = name }
    }
    @Model final class Finch: Bird {
        @Relationship(inverse: \Perch.finches) var perches: [Perch] = []
        var friends: [Finch] = []
        override init(name: String) { super.init(name: name) }
    }
    @Model final class Perch {
        var label: String
        var finches: [Finch] = []
        init(label: String) { self.label = label }
    }
}

enum JoinedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [JoinedSchemaV1.self, JoinedSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: JoinedSchemaV1.self, toVersion: JoinedSchemaV2.self)]
    }
}

// Two stored models moving under one new base: their keys overlap, so the move is refused.
enum MergedSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Hen.self, Duck.self] }
    @Model final class Hen {
        var name: String
        init(name: String) { self.name = name }
    }
    @Model final class Duck {
        var name: String
        init(name: String) { self.name = name }
    }
}

enum MergedSchemaV2: VersionedSchema {
    static let versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Fowl.self, Hen.self, Duck.self] }
    @Model class Fowl {
        var name: String
        init(name: String) { self.name = name }
    }
    @Model final class Hen: Fowl {
        override init(name: String) { super.init(name: name) }
    }
    @Model final class Duck: Fowl {
        override init(name: String) { super.init(name: name) }
    }
}

enum MergedPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [MergedSchemaV1.self, MergedSchemaV2.self] }
    static var stages: [MigrationStage] {
        [.lightweight(fromVersion: MergedSchemaV1.self, toVersion: MergedSchemaV2.self)]
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

    @Test(arguments: StoreKind.all) func aModelOthersReachMovesWithTheirRelationships(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: ReachedSchemaV1.self)))
            let budgie = ReachedSchemaV1.Budgie(name: "Blue")
            context.insert(budgie)
            let cage = ReachedSchemaV1.Cage(label: "Top")
            budgie.cage = cage
            cage.favourite = budgie
            context.insert(ReachedSchemaV1.Budgie(name: "Green"))
            try context.save()
        }
        let container = try store.container(
            Schema(versionedSchema: ReachedSchemaV2.self), migrationPlan: ReachedPlan.self)
        let context = ModelContext(container)
        let animals = try context.fetch(FetchDescriptor<ReachedSchemaV2.Animal>(sortBy: [SortDescriptor(\.name)]))
        #expect(animals.map(\.name) == ["Blue", "Green"])
        let blue = try #require(animals.first as? ReachedSchemaV2.Budgie)
        let cage = try #require(blue.cage)
        #expect(cage.label == "Top")
        #expect(cage.favourite === blue)
        #expect(cage.budgies.map(\.name) == ["Blue"])

        // The foreign keys now name the hierarchy's table: deleting the model applies their delete rules.
        context.delete(blue)
        try context.save()
        let fresh = ModelContext(container)
        let storedCage = try #require(try fresh.fetch(FetchDescriptor<ReachedSchemaV2.Cage>()).first)
        #expect(storedCage.favourite == nil)
        #expect(storedCage.budgies.isEmpty)
        let green = try #require(try fresh.fetch(FetchDescriptor<ReachedSchemaV2.Budgie>()).first)
        green.cage = storedCage
        try fresh.save()
        #expect(
            try ModelContext(container).fetch(FetchDescriptor<ReachedSchemaV2.Cage>()).first?.budgies.map(\.name) == [
                "Green"
            ])
    }

    @Test(arguments: StoreKind.all) func aModelInManyToManyRelationshipsMovesWithTheirRows(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: JoinedSchemaV1.self)))
            let (first, second) = (JoinedSchemaV1.Finch(name: "first"), JoinedSchemaV1.Finch(name: "second"))
            let perch = JoinedSchemaV1.Perch(label: "high")
            context.insert(first)
            context.insert(second)
            context.insert(perch)
            perch.finches = [first, second]
            first.friends = [second]
            try context.save()
        }
        let container = try store.container(
            Schema(versionedSchema: JoinedSchemaV2.self), migrationPlan: JoinedPlan.self)
        let context = ModelContext(container)
        let perch = try #require(try context.fetch(FetchDescriptor<JoinedSchemaV2.Perch>()).first)
        #expect(Set(perch.finches.map(\.name)) == ["first", "second"])
        let first = try #require(perch.finches.first { $0.name == "first" })
        #expect(first.friends.map(\.name) == ["second"])
        #expect(first.perches.map(\.label) == ["high"])

        // The join rows follow the moved rows' delete rules.
        context.delete(first)
        try context.save()
        let fresh = ModelContext(container)
        #expect(try fresh.fetch(FetchDescriptor<JoinedSchemaV2.Perch>()).first?.finches.map(\.name) == ["second"])
        #expect(try fresh.fetchCount(FetchDescriptor<JoinedSchemaV2.Bird>()) == 1)
    }

    @Test(arguments: StoreKind.all) func twoModelsMovingUnderOneBaseAreRefusedAndLoseNothing(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: MergedSchemaV1.self)))
            context.insert(MergedSchemaV1.Hen(name: "Henny"))
            context.insert(MergedSchemaV1.Duck(name: "Donald"))
            try context.save()
        }
        let before = try store.snapshot()
        #expect {
            try store.container(Schema(versionedSchema: MergedSchemaV2.self), migrationPlan: MergedPlan.self)
        } throws: { error in
            guard case .migrationRefused(_, _, _, let reason) = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return reason.contains("subclass of Fowl") && reason.contains("keys could collide")
        }
        #expect(try store.snapshot() == before)
        let context = ModelContext(try store.container(Schema(versionedSchema: MergedSchemaV1.self)))
        #expect(try context.fetch(FetchDescriptor<MergedSchemaV1.Hen>()).map(\.name) == ["Henny"])
        #expect(try context.fetch(FetchDescriptor<MergedSchemaV1.Duck>()).map(\.name) == ["Donald"])
    }
}
