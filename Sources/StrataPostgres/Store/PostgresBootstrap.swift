import Foundation
import Strata

/// Creates a new store's schema, tables and functions, or checks that an existing one holds these models and
/// migrates it when it doesn't. Runs in one transaction under an advisory lock keyed by the PostgreSQL schema, so
/// instances starting together create or migrate the store once: the second waits, then finds it done. Without
/// advisory locks (`PostgresConfiguration.usesAdvisoryLocks`), the metadata's format row is locked instead, and an
/// open that lost the race to create the store runs again.
struct PostgresBootstrap {
    static let formatVersion = "strata-postgres-1"

    let connection: PostgresConnection
    let schema: Schema
    let configuration: PostgresConfiguration
    let migrationPlan: StoreMigrationPlan?
    private let dialect = PostgreSQLDialect()

    /// Every table's DDL, in creation order.
    var statements: [String] {
        spelling.tables(of: schema).map { $0.inlined(in: dialect) }
    }

    /// How this store's creation is spelled, in its schema.
    private var spelling: PostgresStoreCreation {
        PostgresStoreCreation(databaseSchema: configuration.databaseSchema)
    }

    /// How many times an open without advisory locks runs when another instance creates the store meanwhile.
    static let openAttempts = 5

    /// Returns the store's identifier.
    func run() throws -> String {
        guard configuration.allowsSave, !configuration.usesAdvisoryLocks else { return try runOnce() }
        var attempt = 1
        while true {
            do {
                return try runOnce()
            } catch let error as PostgresError where error.isCatalogRace && attempt < Self.openAttempts {
                // Another instance created the schema or the store first; this transaction rolled back.
                attempt += 1
            }
        }
    }

    /// Creates, checks or migrates the store in one transaction.
    private func runOnce() throws -> String {
        let schema = StoredValue.text(configuration.databaseSchema)
        return try connection.transaction {
            if configuration.allowsSave {
                if configuration.usesAdvisoryLocks {
                    // Both halves of the key come from the schema's name, so stores in other schemas don't wait.
                    try connection.query("SELECT pg_advisory_xact_lock(hashtext('strata'), hashtext(\(bind: schema)))")
                }
                // Created only when missing: `CREATE SCHEMA IF NOT EXISTS` needs the database's CREATE privilege
                // even when the schema is there, which a role that only uses the store's tables doesn't have.
                let schemaExists = try connection.query(
                    "SELECT count(*) FROM pg_catalog.pg_namespace WHERE nspname = \(bind: schema)")
                if schemaExists.int64(row: 0, column: 0) == 0 {
                    try connection.execute("CREATE SCHEMA IF NOT EXISTS \(identifier: configuration.databaseSchema)")
                }
            }
            if try metadataExists() {
                if configuration.allowsSave, !configuration.usesAdvisoryLocks {
                    // Held to the end of the transaction: another instance's open waits here, then reads what this
                    // one wrote (each statement of a READ COMMITTED transaction reads the latest commits).
                    try connection.query("SELECT value FROM \(metadata) WHERE key = 'format' FOR UPDATE")
                }
                return try open()
            }
            let tables = try connection.query(
                "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = \(bind: schema)")
            guard tables.int64(row: 0, column: 0) == 0 else {
                throw StrataError.notAStrataStore(
                    path: location, reason: "schema \(configuration.databaseSchema) holds tables but no Strata metadata"
                )
            }
            guard configuration.allowsSave else {
                throw StrataError.storeOpenFailed(
                    path: location, reason: "the store is empty and the configuration doesn't allow saves")
            }
            return try create()
        }
    }

    /// The store's metadata table, in its schema.
    var metadata: SQLFragment { spelling.metadataTable }

    /// `to_regclass` of a table or index of the store's schema: `NULL` when there is none of that name.
    private func regclass(_ name: String) -> SQLFragment {
        "to_regclass(\(bind: .text(spelling.qualified(name).inlined(in: dialect))))"
    }

    /// Whether the store's schema holds the metadata table: it holds a store.
    /// - Throws: ``PostgresError``.
    func metadataExists() throws -> Bool {
        try connection.query("SELECT \(regclass(StoreLayout.metadataTable)) IS NOT NULL").text(row: 0, column: 0) == "t"
    }

    /// The store as errors name it: the URL without its password, and the schema.
    var location: String { configuration.location }

    private func create() throws -> String {
        // The metadata table first, so that of instances creating the store together without advisory locks all but
        // one fail there.
        try StoreCreationPlan(schema: schema, migrationPlan: migrationPlan, spelling: spelling).run(on: connection)
    }

    /// Opens an existing store: checks its format, migrates it to the models when they differ (or refuses, for a
    /// configuration that doesn't allow saves), and returns its identifier.
    private func open() throws -> String {
        let values = try readMetadata()
        let identifier = values["identifier"] ?? ""
        let stored = try storedSchema(values)
        let steps = try planning.steps(from: stored)
        let migrates = MigrationSteps.needsMigration(steps, ignoringHistory: !configuration.allowsSave)
        guard configuration.allowsSave else {
            if migrates {
                throw MigrationSteps.mismatch(steps, path: location)
            }
            return identifier
        }
        // Other instances may be saving meanwhile: the open takes no lock their saves need unless something is to
        // change. Functions of another version (a store created by another Strata) are replaced.
        if values[Self.functionsKey] != PostgresFunctions.definitionsVersion {
            for function in PostgresFunctions.definitions { try connection.execute(function) }
            try connection.query(
                StoreMetadata.write(Self.functionsKey, PostgresFunctions.definitionsVersion, into: metadata))
        }
        // History tables or indexes missing from a store (created before history was recorded, or dropped by hand)
        // are added here, once however many instances open it together: `IF NOT EXISTS`, under the advisory lock
        // (or the metadata's row lock).
        if try !historyTablesExist() {
            for statement in PostgresHistoryTables.createStatements { try connection.execute(statement) }
        }
        if migrates, let last = steps.last {
            let migrator = PostgresMigrator(
                connection: connection, configuration: configuration, identifier: identifier, location: location)
            // Statements prepared before a table changes could fail the migration's transaction (their result type
            // changed), so the migration's reads and saves aren't prepared.
            connection.reusesStatements = false
            defer { connection.reusesStatements = true }
            // Logged before the commit: the open's transaction commits the migration, or rolls it back with its error.
            StrataLog.log(
                .info, "migrating the store to the models",
                metadata: [
                    "store": location, "stages": "\(steps.count)",
                ], category: "migration")
            for step in steps { try migrator.run(step) }
            try record(last.plan.result)
        } else if values[StoredSchema.metadataKey] == nil {
            try record(stored)
        }
        return identifier
    }

    /// The metadata key recording the version of the functions the store holds.
    static let functionsKey = "functions"

    /// Whether the store's schema holds every history table, column and index.
    private func historyTablesExist() throws -> Bool {
        let names = [
            HistoryTables.transactions, HistoryTables.changes, HistoryTables.tombstones, HistoryTables.timestampIndex,
        ]
        let tests = names.map { name -> SQLFragment in "\(regclass(name)) IS NOT NULL" }
        // Stores written before key lists lack the changes table's `keys` column.
        let keys: SQLFragment =
            "EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = \(regclass(HistoryTables.changes)) AND attname = 'keys' "
            + "AND NOT attisdropped)"
        let present = try connection.query("SELECT " + SQLFragment.joined(tests + [keys], separator: " AND "))
        return present.count > 0 && present.text(row: 0, column: 0) == "t"
    }

    /// The planning of this store's migrations.
    var planning: MigrationSteps {
        MigrationSteps(schema: schema, plan: migrationPlan, path: location, layout: PostgresTableLayout())
    }

    /// The metadata's keys and values, once its format is checked.
    /// - Throws: `StrataError.notAStrataStore` for another format, ``PostgresError`` when it can't be read.
    func readMetadata() throws -> [String: String] {
        let rows = try connection.query("SELECT key, value FROM \(metadata)")
        var values: [String: String] = [:]
        for row in 0..<rows.count { values[rows.text(row: row, column: 0) ?? ""] = rows.text(row: row, column: 1) }
        try StoreMetadata.checkFormat(values, is: Self.formatVersion, path: location)
        return values
    }

    /// The description the metadata records. A store written before descriptions were recorded has only its
    /// DDL (`tables`): it is described from the models when that DDL is theirs, and refused otherwise, since what
    /// it holds can't be planned from.
    func storedSchema(_ values: [String: String]) throws -> StoredSchema {
        if let text = values[StoredSchema.metadataKey], let stored = StoredSchema.decode(text) { return stored }
        let recorded = Set((values["tables"] ?? "").components(separatedBy: ";\n"))
        let wanted = Set(statements)
        guard recorded == wanted else {
            let differences =
                wanted.subtracting(recorded).sorted().map { "missing: \($0)" }
                + recorded.subtracting(wanted).sorted().map { "not in the models: \($0)" }
            throw StrataError.schemaMismatch(path: location, differences: differences)
        }
        var stored = StoredSchema(schema: schema, layout: PostgresTableLayout())
        stored.version = nil
        // Its history tables may be missing: the planner adds them (`CREATE TABLE IF NOT EXISTS`).
        stored.history = nil
        return stored
    }

    private func record(_ description: StoredSchema) throws {
        try connection.query(StoreMetadata.write(StoredSchema.metadataKey, description.encoded, into: metadata))
    }
}
