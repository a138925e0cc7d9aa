import Foundation

/// Runs an SQLite store's migration, planned by `MigrationSteps` and spelled by `SQLiteMigrationSQL`. Every stage — custom stages' `willMigrate`/`didMigrate` included — runs
/// in one exclusive transaction with foreign-key enforcement off (SQLite's table-rebuild procedure), checked with
/// `PRAGMA foreign_key_check` before the commit: a failure anywhere rolls everything back.
struct StoreMigrator {
    let connection: SQLiteConnection
    let schema: Schema
    let plan: StoreMigrationPlan?
    let path: String
    let identifier: String
    let dialect = SQLiteDialect()

    /// The neutral planning this executor runs.
    var planning: MigrationSteps {
        MigrationSteps(schema: schema, plan: plan, path: path, layout: SQLiteTableLayout(dialect: dialect))
    }

    /// Runs the migration in one exclusive transaction, planning it again from the description `readStored` reads
    /// inside it (another process may have migrated the store meanwhile). Returns whether this call migrated it.
    ///
    /// - Throws: `StrataError` from planning, a check of the stored data, a custom stage, or SQLite; the store is
    ///   then as it was.
    @discardableResult
    func migrate(readStored: () throws -> StoredSchema) throws -> Bool {
        try translatingErrors("turn off foreign keys to migrate") {
            try connection.execute("PRAGMA foreign_keys = OFF")
        }
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        do {
            var stages = 0
            let migrated = try connection.transaction(exclusive: true) {
                let steps = try planning.steps(from: try readStored())
                guard MigrationSteps.needsMigration(steps), let last = steps.last else { return false }
                for step in steps {
                    try run(step)
                }
                try checkForeignKeys()
                try record(last.plan.result)
                stages = steps.count
                return true
            }
            if migrated {
                StrataLog.log(
                    .info, "migrated the store to the models", metadata: ["store": path, "stages": "\(stages)"],
                    category: "migration")
            }
            return migrated
        } catch let error as SQLiteError where error.isBusy {
            throw StrataError.storeOpenFailed(
                path: path,
                reason:
                    "another connection is writing to the store, so it can't be migrated now (\(error.message)); try again"
            )
        } catch let error as SQLiteError {
            throw StrataError.storeFailure(operation: "migrate the store", reason: error.description)
        }
    }

    private func run(_ step: MigrationSteps.Step) throws {
        if let willMigrate = step.stage.willMigrate, let from = step.stage.from {
            try willMigrate(SQLiteStore(schema: from, connection: connection, path: path, identifier: identifier))
        }
        let sql = SQLiteMigrationSQL(dialect: dialect)
        for action in step.plan.actions {
            if case .check(let check) = action {
                let query = check.query.inlined(in: dialect)
                let rows = try translatingErrors("check \(check.entity) before migrating") {
                    try connection.query(query, [])
                }
                if let row = rows.first { throw check.refusal(row: row, path: path) }
                continue
            }
            for statement in sql.statements(for: action) {
                try translatingErrors("migrate the store (\(statement))") { try connection.execute(statement) }
            }
        }
        if let didMigrate = step.stage.didMigrate {
            try didMigrate(
                SQLiteStore(schema: step.stage.to, connection: connection, path: path, identifier: identifier))
        }
    }

    private func checkForeignKeys() throws {
        let rows = try translatingErrors("check foreign keys after migrating") {
            try connection.query("PRAGMA foreign_key_check", [])
        }
        guard let row = rows.first else { return }
        let table = row.first.flatMap { if case .text(let name) = $0 { name } else { nil } } ?? "?"
        let parent = row.count > 2 ? (row[2] == .null ? "?" : "\(row[2])") : "?"
        throw StrataError.migrationRefused(
            path: path, entity: table, property: nil,
            reason:
                "after migrating, \(rows.count) row(s) refer to missing \(parent) rows; delete or fix them in a MigrationStage.custom"
        )
    }

    /// Writes the migrated schema's description (and its fingerprint, for older readers) into the metadata.
    func record(_ result: StoredSchema) throws {
        let fingerprint = SchemaFingerprint(
            entities: Dictionary(uniqueKeysWithValues: result.entities.map { ($0.name, $0.definition) }))
        try translatingErrors("record the migrated schema") {
            for (key, value) in [("schema", fingerprint.encoded), (StoredSchema.metadataKey, result.encoded)] {
                try connection.run(StoreMetadata.write(key, value))
            }
        }
    }
}
