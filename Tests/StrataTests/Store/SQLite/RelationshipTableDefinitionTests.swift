import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class DDLYard {
    var name: String = ""
    @Relationship(inverse: \DDLPlant.yard) var front: [DDLPlant] = []
    @Relationship(inverse: \DDLPlant.yard) var back: [DDLPlant] = []
    init() {}
}

@Model final class DDLPlant {
    var yard: DDLYard?
    var kind: DDLKind
    init(kind: DDLKind) { self.kind = kind }
}

@Model final class DDLKind {
    var name: String = ""
    var plants: [DDLPlant] = []
    init() {}
}

/// How relationships sharing an inverse, and required to-ones, are stored.
@Suite struct RelationshipTableDefinitionTests {
    private let schema = Schema([DDLYard.self, DDLPlant.self, DDLKind.self])

    @Test func toManysSharingAnInverseEachGetAJoinTableAndTheToOneHasNoSingleInverse() throws {
        #expect(schema.problems.isEmpty)
        let yard = try #require(schema.entity(for: DDLYard.self))
        let plant = try #require(schema.entity(for: DDLPlant.self))
        let front = try #require(yard.relationshipInfos.values.first { $0.name == "front" })
        let back = try #require(yard.relationshipInfos.values.first { $0.name == "back" })
        guard case .joinTable(let frontTable, _, _) = front.storage, case .joinTable(let backTable, _, _) = back.storage
        else {
            Issue.record("expected join tables, found \(front.storage) and \(back.storage)")
            return
        }
        #expect(frontTable == "Z_DDLYard_front")
        #expect(backTable == "Z_DDLYard_back")
        #expect(front.inverse?.name == "yard")
        let yardOfPlant = try #require(plant.relationshipInfos.values.first { $0.name == "yard" })
        #expect(yardOfPlant.inverseIndex == nil)
        #expect(yardOfPlant.inverses.map(\.name).sorted() == ["back", "front"])
        let statements = TableDefinition(entity: yard, dialect: SQLiteDialect()).statements.map {
            $0.inlined(in: SQLiteDialect())
        }
        .joined(separator: "\n")
        #expect(statements.contains("CREATE TABLE \"Z_DDLYard_front\""))
        #expect(statements.contains("CREATE TABLE \"Z_DDLYard_back\""))
    }

    @Test func aRequiredToOneRestrictsDeletingItsModelAndAnOptionalOneIsSetNull() throws {
        let plant = try #require(schema.entity(for: DDLPlant.self))
        let columns = TableDefinition(entity: plant, dialect: SQLiteDialect()).columns.map {
            $0.inlined(in: SQLiteDialect())
        }
        #expect(
            columns.contains {
                $0.hasPrefix("\"kind\" INTEGER REFERENCES \"DDLKind\"") && $0.hasSuffix("ON DELETE RESTRICT")
            })
        #expect(
            columns.contains {
                $0.hasPrefix("\"yard\" INTEGER REFERENCES \"DDLYard\"") && $0.hasSuffix("ON DELETE SET NULL")
            })
    }
}
