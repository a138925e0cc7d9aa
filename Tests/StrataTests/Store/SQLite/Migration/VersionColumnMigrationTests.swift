import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Stores written before rows carried a version get the column from an inferred migration.
@Suite("Version column migration")
struct VersionColumnMigrationTests {
    /// Rewrites the store as it was before the version column: the table without `Z_OPT`, and the recorded
    /// description and fingerprint as that code wrote them (or, with `recordsModel: false`, the fingerprint only).
    private func makeLegacy(_ store: TemporaryStore, recordsModel: Bool) throws {
        let versionColumn = ", " + TableDefinition.versionColumnDefinition.inlined(in: SQLiteDialect())
        let schema = Schema([LockingCounter.self])
        var fingerprint = SchemaFingerprint(schema: schema, dialect: SQLiteDialect())
        fingerprint.entities = fingerprint.entities.mapValues { $0.replacingOccurrences(of: versionColumn, with: "") }
        var description = StoredSchema(schema: schema, dialect: SQLiteDialect())
        for index in description.entities.indices {
            description.entities[index].definition = description.entities[index].definition.replacingOccurrences(
                of: versionColumn, with: "")
        }
        let connection = try SQLiteConnection(location: .file(store.url.path))
        try connection.run("ALTER TABLE \"LockingCounter\" DROP COLUMN \"Z_OPT\"", [])
        try connection.run("UPDATE strata_metadata SET value = ? WHERE key = 'schema'", [.text(fingerprint.encoded)])
        if recordsModel {
            try connection.run("UPDATE strata_metadata SET value = ? WHERE key = 'model'", [.text(description.encoded)])
        } else {
            try connection.run("DELETE FROM strata_metadata WHERE key = 'model'", [])
        }
        #expect(
            try connection.query("SELECT count(*) FROM pragma_table_info('LockingCounter') WHERE name = 'Z_OPT'", [])
                == [[.integer(0)]])
    }

    @Test(
        "A store without the version column migrates (ALTER TABLE … ADD COLUMN, rows at version 0), then detects conflicts",
        arguments: [true, false])
    func legacyStoreMigrates(recordsModel: Bool) throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(LockingCounter.self))
            context.insert(LockingCounter(name: "visits", value: 7, note: "old"))
            try context.save()
        }
        try makeLegacy(store, recordsModel: recordsModel)
        let steps = try ModelContainer.migrationSteps(
            for: Schema([LockingCounter.self]), configurations: ModelConfiguration(url: store.url))
        // A store described by its fingerprint alone predates persistent history too, whose tables the step adds.
        #expect(
            steps.flatMap(\.sql).filter { !$0.contains("strata_history") }
                == ["ALTER TABLE \"LockingCounter\" ADD COLUMN \"Z_OPT\" INTEGER NOT NULL DEFAULT 0"])

        let first = ModelContext(try store.container(LockingCounter.self))
        let second = ModelContext(try store.container(LockingCounter.self))
        first.mergePolicy = .error
        let mine = try #require(try first.fetch(FetchDescriptor<LockingCounter>()).first)
        #expect(mine.value == 7 && mine.note == "old")
        #expect(mine.persistentBackingData.rowVersion == 0)
        try #require(try second.fetch(FetchDescriptor<LockingCounter>()).first).value = 8
        try second.save()
        mine.value = 9
        #expect(throws: StrataError.self) { try first.save() }
        // Reopening the migrated store needs no further migration.
        let again = try ModelContainer.migrationSteps(
            for: Schema([LockingCounter.self]), configurations: ModelConfiguration(url: store.url))
        #expect(again.isEmpty)
    }
}
