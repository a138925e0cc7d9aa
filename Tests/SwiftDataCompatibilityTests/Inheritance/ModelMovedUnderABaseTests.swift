import Foundation
import SwiftData
import Testing

// A pet app whose second version moves a stored model under a new base class.

enum MoveSchemaV1: VersionedSchema {
    static let versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Parrot.self] }
    @Model final class Parrot {
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

/// Moving a stored model under a new base class is refused before anything changes, rather than leaving its rows
/// behind in a table nothing reads.
@Suite struct ModelMovedUnderABaseTests {
    @Test(arguments: StoreKind.all) func theMoveIsRefusedNamingTheModelAndLosesNothing(_ kind: StoreKind) throws {
        let store = CompatibilityStore(kind)
        do {
            let context = ModelContext(try store.container(Schema(versionedSchema: MoveSchemaV1.self)))
            let polly = MoveSchemaV1.Parrot(name: "Polly")
            polly.words = 12
            context.insert(polly)
            try context.save()
        }
        let before = try store.snapshot()
        #expect {
            try store.container(Schema(versionedSchema: MoveSchemaV2.self), migrationPlan: MovePlan.self)
        } throws: { error in
            guard case .migrationRefused(_, let entity, _, let reason) = error as? StrataError else { return false }
            return entity == "Parrot" && reason.contains("subclass of Pet")
        }
        #expect(try store.snapshot() == before)
        let parrots = try ModelContext(try store.container(Schema(versionedSchema: MoveSchemaV1.self))).fetch(
            FetchDescriptor<MoveSchemaV1.Parrot>())
        #expect(parrots.map(\.words) == [12])
    }
}
