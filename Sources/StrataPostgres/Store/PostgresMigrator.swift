import Strata

/// Runs a planned migration's stages on PostgreSQL, inside the bootstrap's transaction (PostgreSQL's DDL is
/// transactional, so a failure anywhere leaves the store as it was). A changed table is altered in place — columns
/// dropped, renamed, added, their `NOT NULL` and foreign keys changed, uniqueness constraints and indexes
/// replaced — rather than rebuilt, so its rows keep their keys, versions and the foreign keys pointing at them.
/// Foreign keys, join tables and indexes of a stage are created after its tables, so new tables may refer to each
/// other in any order.
struct PostgresMigrator {
    let connection: PostgresConnection
    let configuration: PostgresConfiguration
    let identifier: String
    /// The store as errors name it.
    let location: String
    private let dialect = PostgreSQLDialect()

    init(connection: PostgresConnection, configuration: PostgresConfiguration, identifier: String, location: String) {
        self.connection = connection
        self.configuration = configuration
        self.identifier = identifier
        self.location = location
    }

    /// Runs one stage: `willMigrate`, the actions, the deferred constraints, then `didMigrate`.
    ///
    /// - Throws: `StrataError.migrationRefused` when stored data breaks a check or a new foreign key, whatever a
    ///   custom stage throws, `StrataError.storeFailure` naming the statement PostgreSQL refused.
    func run(_ step: MigrationSteps.Step) throws {
        if let willMigrate = step.stage.willMigrate, let from = step.stage.from {
            try willMigrate(PostgresStore(schema: from, migrating: connection, configuration: configuration, identifier: identifier))
        }
        var deferred: [(entity: String, sql: String)] = []
        for action in step.plan.actions {
            switch action {
            case .check(let check):
                let rows = try query(check.entity, check.query(quote: quote, literal: literal), [])
                if rows.count > 0 {
                    throw check.refusal(row: (0..<rows.columnCount).map { rows.storedValue(row: 0, column: $0) }, path: location)
                }
            case .createEntity(let entity):
                let table = PostgresTableDefinition(entity: entity)
                try execute(entity.name, table.createTable)
                deferred += (table.foreignKeys + table.joinTables + table.indexes).map { (entity.name, $0) }
            case .createHistoryTables:
                for statement in PostgresHistoryTables.createStatements { try execute("history", statement) }
            case .alterTable(let alteration):
                deferred += try alter(alteration)
            case .dropEntity(let name):
                // CASCADE drops the foreign keys other tables hold to it; their own changes come in this stage.
                try execute(name, "DROP TABLE \(quote(name)) CASCADE")
            case .createJoinTable(let table):
                deferred.append((table.ownerSide, table.definition))
            case .carryJoinTable(let old, let table, let ownerSource, let targetSource):
                let statements = MigrationAction.carryStatements(
                    from: old, to: table, ownerSource: ownerSource, targetSource: targetSource, quote: quote)
                for statement in statements { try execute(table.ownerSide, statement) }
            case .dropJoinTable(let name):
                try execute(name, "DROP TABLE IF EXISTS \(quote(name))")
            }
        }
        for (entity, statement) in deferred { try execute(entity, statement) }
        if let didMigrate = step.stage.didMigrate {
            try didMigrate(PostgresStore(schema: step.stage.to, migrating: connection, configuration: configuration, identifier: identifier))
        }
    }

    /// Alters one table; returns the foreign keys and indexes to create once the stage's tables exist.
    private func alter(_ alteration: TableAlteration) throws -> [(entity: String, sql: String)] {
        let entity = alteration.entity
        let name = entity.name
        let table = quote(name)
        let definition = PostgresTableDefinition(entity: entity)
        let (current, wanted) = (alteration.current, alteration.wanted)
        var deferred: [(entity: String, sql: String)] = []
        // Constraints are replaced whole when any changes: their names follow their position.
        let renamedUnique = current.uniquenessConstraints.map { $0.map { alteration.renamed[$0] ?? $0 } }
        if renamedUnique != wanted.uniquenessConstraints {
            for position in current.uniquenessConstraints.indices {
                let constraint = quote(PostgresTableDefinition.uniqueConstraintName(name, position))
                try execute(name, "ALTER TABLE \(table) DROP CONSTRAINT IF EXISTS \(constraint)")
            }
        }
        for column in alteration.removed {
            try execute(name, "ALTER TABLE \(table) DROP COLUMN IF EXISTS \(quote(column))")
        }
        for (old, new) in alteration.renamed.sorted(by: { $0.key < $1.key }) {
            try execute(name, "ALTER TABLE \(table) RENAME COLUMN \(quote(old)) TO \(quote(new))")
        }
        if !current.hasVersionColumn {
            try execute(name, "ALTER TABLE \(table) ADD COLUMN \(quote(SelectStatement.versionColumn)) bigint NOT NULL DEFAULT 0")
        }
        for (index, (column, source)) in zip(entity.columnPropertyIndexes, zip(wanted.columns, alteration.sources)) {
            let column = (column, quote(column.name))
            switch source {
            case .value(let value):
                try execute(name, "ALTER TABLE \(table) ADD COLUMN \(definition.column(at: index))" + (value.map { " DEFAULT \(literal($0))" } ?? ""))
                if let foreignKey = definition.foreignKey(at: index) { deferred.append((name, foreignKey)) }
            case .coalesce(let sourceName, let value):
                let stored = quote(alteration.renamed[sourceName] ?? sourceName)
                try execute(name, "UPDATE \(table) SET \(stored) = \(literal(value)) WHERE \(stored) IS NULL")
                try execute(name, "ALTER TABLE \(table) ALTER COLUMN \(stored) SET NOT NULL")
            case .column(let sourceName):
                guard let old = current.column(named: sourceName) else { continue }
                if old.isOptional != column.0.isOptional {
                    try execute(name, "ALTER TABLE \(table) ALTER COLUMN \(column.1) \(column.0.isOptional ? "DROP" : "SET") NOT NULL")
                }
                if old.destination != nil, old.definition != column.0.definition {
                    try dropForeignKeys(of: name, column: column.0.name)
                    if let foreignKey = definition.foreignKey(at: index) { deferred.append((name, foreignKey)) }
                }
            }
        }
        if renamedUnique != wanted.uniquenessConstraints {
            for constraint in definition.uniqueConstraints {
                try execute(name, "ALTER TABLE \(table) ADD \(constraint)")
            }
        }
        for statement in current.indexStatements where !wanted.indexStatements.contains(statement) {
            if let index = StoredEntity.quotedIdentifiers(in: statement).first {
                try execute(name, "DROP INDEX IF EXISTS \(quote(index))")
            }
        }
        deferred += wanted.indexStatements.filter { !current.indexStatements.contains($0) }.map { (name, $0) }
        return deferred
    }

    /// Drops the foreign-key constraints on `column` of `table`, found by the catalog (their names are PostgreSQL's).
    private func dropForeignKeys(of table: String, column: String) throws {
        let rows = try query(table, """
            SELECT c.conname FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_attribute a
            ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
            WHERE c.contype = 'f' AND c.conrelid = to_regclass($1) AND a.attname = $2
            """, [.text(quote(table)), .text(column)])
        for row in 0..<rows.count {
            guard let constraint = rows.text(row: row, column: 0) else { continue }
            try execute(table, "ALTER TABLE \(quote(table)) DROP CONSTRAINT \(quote(constraint))")
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
                reason: "stored rows don't fit the migrated table (\(error.message)); fix them in a MigrationStage.custom")
        } catch let error as PostgresError {
            throw StrataError.storeFailure(operation: "migrate the store (\(sql))", reason: error.description)
        }
    }

    /// A value as a PostgreSQL literal, for `DEFAULT` clauses and the expressions of checks and updates.
    private func literal(_ value: StoredValue) -> String {
        switch value {
        case .real(let real) where real.isNaN: return "'NaN'"
        case .real(let real) where real.isInfinite: return real < 0 ? "'-Infinity'" : "'Infinity'"
        case .blob(let bytes):
            let digits = Array("0123456789abcdef")
            return "'\\x" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + "'::bytea"
        default: return value.sqlLiteral
        }
    }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}
