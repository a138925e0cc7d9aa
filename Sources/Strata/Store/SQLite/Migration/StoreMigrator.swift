import Foundation

/// Plans and runs a store's migration. Every stage — custom stages' `willMigrate`/`didMigrate` included — runs
/// in one exclusive transaction with foreign-key enforcement off (SQLite's table-rebuild procedure), checked with
/// `PRAGMA foreign_key_check` before the commit: a failure anywhere rolls everything back.
struct StoreMigrator {
    let connection: SQLiteConnection
    let schema: Schema
    let plan: StoreMigrationPlan?
    let path: String
    let identifier: String
    let dialect = SQLiteDialect()

    /// One planned stage.
    struct Step {
        let stage: ResolvedStage
        let plan: MigrationPlanner.Plan
        let from: StoredSchema
    }

    /// The stages from `stored` to the models, each planned from the description the previous one leaves.
    ///
    /// - Throws: `StrataError.migrationRefused` for a change no stage makes losslessly,
    ///   `StrataError.unknownStoreVersion` for a store version the plan doesn't list.
    func steps(from stored: StoredSchema) throws -> [Step] {
        var stages = try plan?.stages(from: stored, path: path, dialect: dialect) ?? []
        if stages.last?.to !== schema {
            // The container's own models, when they aren't the plan's newest schema object (usually no change).
            stages.append(ResolvedStage(from: nil, to: schema, dropsRemovedEntities: false, willMigrate: nil, didMigrate: nil, kind: nil))
        }
        var current = stored
        var steps: [Step] = []
        for stage in stages {
            var planned = try MigrationPlanner(stored: current, target: stage.to, dropsRemovedEntities: stage.dropsRemovedEntities, path: path).plan()
            planned.result.version = stage.to.versionIdentifier ?? current.version
            steps.append(Step(stage: stage, plan: planned, from: current))
            current = planned.result
        }
        return steps
    }

    /// Whether `steps` change anything in the file; `ignoringHistory` leaves out adding the history tables (a
    /// read-only open, which works without them).
    static func needsMigration(_ steps: [Step], ignoringHistory: Bool = false) -> Bool {
        steps.contains { step in
            step.plan.actions.count > (ignoringHistory ? step.plan.historyActionCount : 0)
                || !step.plan.changes.isEmpty || step.plan.result.version != step.from.version
                || step.stage.willMigrate != nil || step.stage.didMigrate != nil
        }
    }

    /// Runs the migration in one exclusive transaction, planning it again from the description `readStored` reads
    /// inside it (another process may have migrated the store meanwhile).
    ///
    /// - Throws: `StrataError` from planning, a check of the stored data, a custom stage, or SQLite; the store is
    ///   then as it was.
    func migrate(readStored: () throws -> StoredSchema) throws {
        try translatingErrors("turn off foreign keys to migrate") { try connection.execute("PRAGMA foreign_keys = OFF") }
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        do {
            try connection.transaction(exclusive: true) {
                let steps = try steps(from: try readStored())
                guard Self.needsMigration(steps), let last = steps.last else { return }
                for step in steps {
                    try run(step)
                }
                try checkForeignKeys()
                try record(last.plan.result)
            }
        } catch let error as SQLiteError where error.isBusy {
            throw StrataError.storeOpenFailed(
                path: path, reason: "another connection is writing to the store, so it can't be migrated now (\(error.message)); try again")
        } catch let error as SQLiteError {
            throw StrataError.storeFailure(operation: "migrate the store", reason: error.description)
        }
    }

    private func run(_ step: Step) throws {
        if let willMigrate = step.stage.willMigrate, let from = step.stage.from {
            try willMigrate(SQLiteStore(schema: from, connection: connection, path: path, identifier: identifier))
        }
        for action in step.plan.actions {
            switch action {
            case .sql(let sql):
                try translatingErrors("migrate the store (\(sql))") { try connection.execute(sql) }
            case .check(let check):
                try check.run(on: connection, path: path, dialect: dialect)
            }
        }
        if let didMigrate = step.stage.didMigrate {
            try didMigrate(SQLiteStore(schema: step.stage.to, connection: connection, path: path, identifier: identifier))
        }
    }

    private func checkForeignKeys() throws {
        let rows = try translatingErrors("check foreign keys after migrating") { try connection.query("PRAGMA foreign_key_check", []) }
        guard let row = rows.first else { return }
        let table = row.first.flatMap { if case .text(let name) = $0 { name } else { nil } } ?? "?"
        let parent = row.count > 2 ? (row[2] == .null ? "?" : "\(row[2])") : "?"
        throw StrataError.migrationRefused(
            path: path, entity: table, property: nil,
            reason: "after migrating, \(rows.count) row(s) refer to missing \(parent) rows; delete or fix them in a MigrationStage.custom")
    }

    /// Writes the migrated schema's description (and its fingerprint, for older readers) into the metadata.
    func record(_ result: StoredSchema) throws {
        let fingerprint = SchemaFingerprint(entities: Dictionary(uniqueKeysWithValues: result.entities.map { ($0.name, $0.definition) }))
        let table = dialect.quote(identifier: StoreBootstrap.metadataTable)
        try translatingErrors("record the migrated schema") {
            for (key, value) in [("schema", fingerprint.encoded), ("model", result.encoded)] {
                try connection.run("INSERT OR REPLACE INTO \(table) (key, value) VALUES (?, ?)", [.text(key), .text(value)])
            }
        }
    }
}
