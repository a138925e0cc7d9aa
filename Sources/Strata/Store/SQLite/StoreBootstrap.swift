import Foundation

/// Creates a new store's tables, or checks that an existing file is a Strata store and migrates it to the models
/// when they differ. Nothing is written to a file that fails the checks or can't be migrated.
struct StoreBootstrap {
    static let formatVersion = "strata-sqlite-1"

    let connection: SQLiteConnection
    let schema: Schema
    let path: String
    let readOnly: Bool
    let migrationPlan: StoreMigrationPlan?
    /// The store file's path when a backup is written before migrating it.
    let backupPath: String?

    /// Returns the store's identifier.
    func run() throws -> String {
        var tables = try listTables()
        if tables.isEmpty {
            guard !readOnly else {
                throw StrataError.storeOpenFailed(
                    path: path, reason: "the store is empty and the container is read-only")
            }
            if let identifier = try create() { return identifier }
            // Another connection (of this process or another) created the store since: open it as it is now.
            tables = try listTables()
        }
        let (stored, identifier) = try readStoredSchema(tables: tables)
        let migrator = StoreMigrator(
            connection: connection, schema: schema, plan: migrationPlan, path: path, identifier: identifier)
        let steps = try migrator.planning.steps(from: stored)
        guard MigrationSteps.needsMigration(steps, ignoringHistory: readOnly) else {
            if !readOnly { try createPrimaryKeys() }
            return identifier
        }
        guard !readOnly else {
            throw MigrationSteps.mismatch(steps, path: path)
        }
        // Before the migration, so a rebuilt or moved table's keys are known from the history it had.
        try createPrimaryKeys()
        let backup = try backupPath.map { try StoreBackup.write(of: connection, storePath: $0) }
        let migrated: Bool
        do {
            migrated = try migrator.migrate { Self.storedSchema(try readMetadata()) }
        } catch {
            // The store is as it was, so a copy of it is of no use.
            if let backup { StoreBackup.discard(backup) }
            throw error
        }
        // Connections opening the store at once each copied it; only the one that migrated it copied it before any
        // migration (another's copy may be of the migrated store), so only its copy is kept.
        if let backup, let backupPath {
            if migrated {
                try StoreBackup.keep(backup, storePath: backupPath, stored: stored)
            } else {
                StoreBackup.discard(backup)
            }
        }
        return identifier
    }

    /// Checks that the file is a Strata store and reads the schema description it records, and its identifier.
    func readStoredSchema(tables knownTables: [String]? = nil) throws -> (StoredSchema, String) {
        let tables = try knownTables ?? listTables()
        guard tables.contains(StoreLayout.metadataTable) else {
            throw StrataError.notAStrataStore(
                path: path,
                reason:
                    "it is an SQLite database without Strata's metadata (tables: \(tables.sorted().joined(separator: ", ")))"
            )
        }
        let metadata = try readMetadata()
        try StoreMetadata.checkFormat(metadata, is: Self.formatVersion, path: path)
        return (Self.storedSchema(metadata), metadata["identifier"] ?? "")
    }

    /// The schema description the metadata records, rebuilt from the fingerprint for stores written before it was.
    private static func storedSchema(_ metadata: [String: String]) -> StoredSchema {
        metadata["model"].flatMap(StoredSchema.decode)
            ?? StoredSchema(fingerprint: SchemaFingerprint.decode(metadata["schema"] ?? ""))
    }

    /// The names of the file's tables (SQLite's own left out).
    private func listTables() throws -> [String] {
        try read(
            "list tables",
            "SELECT name FROM sqlite_master WHERE type = \(bind: .text("table")) AND name NOT LIKE \(bind: .text("sqlite_%"))"
        )
        .compactMap { row -> String? in if case .text(let name)? = row.first { return name } else { return nil } }
    }

    /// Creates the store's tables and returns its new identifier; `nil` when the file is no longer empty once this
    /// connection holds the write lock. Every opener of a new file checks that it's empty, but only the one that
    /// holds the lock (`BEGIN IMMEDIATE`) when it looks again creates the store, however many open it at once.
    private func create() throws -> String? {
        let plan = StoreCreationPlan(schema: schema, migrationPlan: migrationPlan, spelling: SQLiteStoreCreation())
        return try translatingErrors("create the store's tables") {
            try connection.transaction { () throws -> String? in
                guard try listTables().isEmpty else { return nil }
                return try plan.run(on: connection)
            }
        }
    }

    /// Gives a store written before `strata_primary_keys` existed its key marks (``SQLitePrimaryKeys``).
    private func createPrimaryKeys() throws {
        try translatingErrors("record the store's primary keys") {
            try SQLitePrimaryKeys.createForExistingStore(on: connection, schema: schema)
        }
    }

    private func readMetadata() throws -> [String: String] {
        var metadata: [String: String] = [:]
        for row in try read(
            "read the store's metadata",
            "SELECT key, value FROM \(StoreMetadata.table)")
        {
            if row.count == 2, case .text(let key) = row[0], case .text(let value) = row[1] { metadata[key] = value }
        }
        return metadata
    }

    private func read(_ operation: String, _ statement: SQLFragment) throws -> [[StoredValue]] {
        do {
            return try connection.query(statement)
        } catch  where error.isNotADatabase || error.isCorrupt {
            throw StrataError.notAStrataStore(path: path, reason: error.message)
        } catch {
            throw StrataError.storeFailure(operation: operation, reason: error.description)
        }
    }
}
