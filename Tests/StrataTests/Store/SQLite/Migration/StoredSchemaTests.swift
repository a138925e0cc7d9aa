import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("The schema description a store records")
struct StoredSchemaTests {
    @Test("A description read back from JSON equals the one written, version and defaults included")
    func jsonRoundTrip() throws {
        var description = StoredSchema(schema: Schema([TripAddedDefault.Trip.self]), dialect: SQLiteDialect())
        description.version = Schema.Version(2, 1, 0)
        let decoded = try #require(StoredSchema.decode(description.encoded))
        #expect(decoded == description)
        let rating = try #require(decoded.entity(named: "Trip")?.column(named: "rating"))
        #expect(rating.defaultValue == .integer(3))
        #expect(rating.valueType == "Int")
        #expect(decoded.entity(named: "Trip")?.column(named: "days")?.valueType == "Int32")
    }

    @Test(
        "A fingerprint-only store is described again from its DDL: columns, foreign keys, constraints, indexes, join tables"
    )
    func rebuiltFromFingerprint() throws {
        for types in [
            [TripWithTags.Trip.self, TripWithTags.Tag.self] as [any PersistentModel.Type],
            [TripWithStops.Trip.self, TripWithStops.Stop.self], [TripUnique.Trip.self], [TripIndexed.Trip.self],
        ] {
            let fresh = StoredSchema(schema: Schema(types), dialect: SQLiteDialect())
            let rebuilt = StoredSchema(fingerprint: SchemaFingerprint(schema: Schema(types), dialect: SQLiteDialect()))
            #expect(rebuilt.entities.count == fresh.entities.count)
            for (old, new) in zip(rebuilt.entities, fresh.entities) {
                #expect(old.matches(new), "\(new.name)")
                #expect(old.uniquenessConstraints == new.uniquenessConstraints)
                #expect(old.indexStatements == new.indexStatements)
                #expect(old.joinTables == new.joinTables)
                #expect(old.columns.map(\.storage) == new.columns.map(\.storage))
                #expect(old.columns.map(\.destination) == new.columns.map(\.destination))
            }
        }
    }
}
