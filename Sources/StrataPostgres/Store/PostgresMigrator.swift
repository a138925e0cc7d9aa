import Strata

/// Runs a planned migration's stages on PostgreSQL, inside the bootstrap's transaction (PostgreSQL's DDL is
/// transactional, so a failure anywhere leaves the store as it was), with the statements `PostgresMigrationSQL`
/// spells.
struct PostgresMigrator {
    let connection: PostgresConnection
    let configuration: PostgresConfiguration
    let identifier: String
    /// The store as errors name it.
    let location: String

    /// Runs one stage: `willMigrate`, the actions, the deferred constraints, then `didMigrate`.
    ///
    /// - Throws: `StrataError.migrationRefused` when stored data breaks a check or a new foreign key, whatever a
    ///   custom stage throws, `StrataError.storeFailure` naming the statement PostgreSQL refused.
    func run(_ step: MigrationSteps.Step) throws {
        if let willMigrate = step.stage.willMigrate, let from = step.stage.from {
            try willMigrate(
                PostgresStore(schema: from, migrating: connection, configuration: configuration, identifier: identifier)
            )
        }
        let sql = PostgresMigrationSQL(connection: connection)
        var deferred: [(entity: String, sql: String)] = []
        for action in step.plan.actions {
            if case .check(let check) = action {
                let rows = try query(check.entity, sql.checkQuery(check), [])
                if rows.count > 0 {
                    throw check.refusal(
                        row: (0..<rows.columnCount).map { rows.storedValue(row: 0, column: $0) }, path: location)
                }
                continue
            }
            // Only a table alteration reads the catalog (the names of the foreign keys it replaces).
            let entity = if case .alterTable(let alteration) = action { alteration.entity.name } else { "" }
            let statements = try reportingFailures(entity, "read the foreign keys of \(entity)") {
                try sql.statements(for: action)
            }
            for (entity, statement) in statements.now { try execute(entity, statement) }
            deferred += statements.deferred
        }
        for (entity, statement) in deferred { try execute(entity, statement) }
        if let didMigrate = step.stage.didMigrate {
            try didMigrate(
                PostgresStore(
                    schema: step.stage.to, migrating: connection, configuration: configuration, identifier: identifier))
        }
    }

    /// Runs DDL (a join table's definition is two statements), reporting failures as ``query(_:_:_:)`` does.
    private func execute(_ entity: String, _ sql: String) throws {
        try reportingFailures(entity, sql) { try connection.execute(sql) }
    }

    /// Runs one statement, reporting a failure as the migration's: stored rows a new foreign key or `NOT NULL`
    /// rejects as a refusal naming the entity, anything else as a store failure naming the statement.
    private func query(_ entity: String, _ sql: String, _ bindings: [StoredValue]) throws -> PostgresResult {
        try reportingFailures(entity, sql) { try connection.query(sql, bindings) }
    }

    private func reportingFailures<T>(_ entity: String, _ sql: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as PostgresError where error.sqlState == "23503" || error.sqlState == "23502" {
            throw StrataError.migrationRefused(
                path: location, entity: entity, property: nil,
                reason:
                    "stored rows don't fit the migrated table (\(error.message)); fix them in a MigrationStage.custom")
        } catch let error as PostgresError {
            throw StrataError.storeFailure(operation: "migrate the store (\(sql))", reason: error.description)
        }
    }
}
