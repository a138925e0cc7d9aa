import Strata

/// Spells a planned migration's actions in PostgreSQL's SQL, for ``PostgresMigrator`` to run and for a dry run to
/// list. A changed table is altered in place — uniqueness constraints dropped (their names follow their position),
/// columns dropped, renamed, added, their `NOT NULL` and foreign keys changed, constraints added again, indexes
/// diffed — rather than rebuilt, so its rows keep their keys, versions and the foreign keys pointing at them.
/// Foreign keys, join tables and new indexes come after every table of the stage (``Statements/deferred``), so new
/// tables may refer to each other in any order.
struct PostgresMigrationSQL {
    /// The statements of one action, each with the entity it changes (named when PostgreSQL refuses it).
    struct Statements {
        var now: [(entity: String, sql: String)] = []
        var deferred: [(entity: String, sql: String)] = []
    }

    /// The names of the foreign-key constraints on a stored column (PostgreSQL chose them), read from the catalog.
    let foreignKeyNames: (_ table: String, _ column: String) throws -> [String]
    private let dialect = PostgreSQLDialect()

    init(foreignKeyNames: @escaping (_ table: String, _ column: String) throws -> [String]) {
        self.foreignKeyNames = foreignKeyNames
    }

    /// Looks the constraints up on `connection`.
    init(connection: PostgresConnection) {
        let quote = PostgreSQLDialect().quote(identifier:)
        self.init { table, column in
            let rows = try connection.query(
                """
                SELECT c.conname FROM pg_catalog.pg_constraint c JOIN pg_catalog.pg_attribute a
                ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                WHERE c.contype = 'f' AND c.conrelid = to_regclass($1) AND a.attname = $2 ORDER BY c.conname
                """, [.text(quote(table)), .text(column)])
            return (0..<rows.count).compactMap { rows.text(row: $0, column: 0) }
        }
    }

    /// The statements of `action`; none for a check (run as a query: ``checkQuery(_:)``).
    /// - Throws: ``PostgresError`` when the catalog can't be read.
    func statements(for action: MigrationAction) throws -> Statements {
        var statements = Statements()
        switch action {
        case .check:
            break
        case .createEntity(let entity, let joinTables):
            let table = PostgresTableDefinition(entity: entity)
            statements.now = [(entity.name, table.createTable), (entity.name, resumeIssuedKeys(entity.name))]
            statements.deferred = (table.foreignKeys + (joinTables ? table.joinTables : []) + table.indexes).map {
                (entity.name, $0)
            }
        case .createHistoryTables, .upgradeHistoryTables:
            // Every statement is `IF NOT EXISTS`, so the same list brings older tables up to date.
            statements.now = PostgresHistoryTables.createStatements.map { ("history", $0) }
        case .alterTable(let alteration):
            statements = try alter(alteration)
        case .dropEntity(let name):
            // CASCADE drops the foreign keys other tables hold to it; their own changes come in this stage.
            statements.now = [(name, keepIssuedKeys(name)), (name, "DROP TABLE \(quote(name)) CASCADE")]
        case .createJoinTable(let table):
            statements.deferred = [(table.ownerSide, table.definition)]
        case .carryJoinTable(let old, let table, let ownerSource, let targetSource):
            statements.now = MigrationAction.carryStatements(
                from: old, to: table, ownerSource: ownerSource, targetSource: targetSource
            ).map { (table.ownerSide, $0.inlined(in: dialect)) }
        case .dropJoinTable(let name):
            statements.now = [(name, "DROP TABLE IF EXISTS \(quote(name))")]
        case .setAsideRows(let move):
            statements.now = move.setAsideStatements.map { (move.source, $0.inlined(in: dialect)) }
        case .moveRows(let move):
            // The rows keep their keys, so the hierarchy's key sequence continues after the largest, and after every
            // key the model's own sequence issued (rows deleted since), before that sequence is dropped with its table.
            let table = quote(move.hierarchy.name)
            let key = quote(StoreLayout.primaryKeyColumn)
            let column = StoreLayout.primaryKeyColumn
            let issued = { (table: String) in
                "coalesce(pg_sequence_last_value(pg_get_serial_sequence('\(table)', '\(column)')::regclass), 0)"
            }
            let sequence =
                "SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), greatest((SELECT coalesce(max(\(key)), 0) "
                + "FROM \(table)), \(issued(quote(move.setAsideName))), \(issued(table))) + 1, false)"
            // CASCADE drops the foreign keys that join tables still hold to the set-aside table; those tables are
            // carried over to the hierarchy's table after this.
            statements.now =
                move.statements(keepingKeys: [SQLFragment(sql: sequence)], dropping: " CASCADE").map {
                    (move.hierarchy.name, $0.inlined(in: dialect))
                }
        }
        return statements
    }

    /// The metadata key keeping the last key a dropped table's sequence issued.
    private func issuedKeysKey(_ table: String) -> String { "primaryKeyMax." + table }

    /// Keeps the last key `table`'s identity sequence issued, which `DROP TABLE` drops with it, so a table of that
    /// name created later continues after it (a key is never issued twice in a store, as on SQLite).
    private func keepIssuedKeys(_ table: String) -> String {
        let metadata = quote(StoreLayout.metadataTable)
        let issued =
            "pg_sequence_last_value(pg_get_serial_sequence('\(quote(table))', '\(StoreLayout.primaryKeyColumn)')::regclass)"
        return "INSERT INTO \(metadata) (key, value) SELECT \(literal(.text(issuedKeysKey(table)))), "
            + "coalesce(\(issued), 0)::text ON CONFLICT (key) DO UPDATE "
            + "SET value = greatest(\(metadata).value::bigint, EXCLUDED.value::bigint)::text"
    }

    /// Starts a new table's identity sequence after the last key a dropped table of its name issued, if any.
    private func resumeIssuedKeys(_ table: String) -> String {
        "SELECT setval(pg_get_serial_sequence('\(quote(table))', '\(StoreLayout.primaryKeyColumn)'), value::bigint) "
            + "FROM \(quote(StoreLayout.metadataTable)) WHERE key = \(literal(.text(issuedKeysKey(table)))) "
            + "AND value::bigint > 0"
    }

    /// The query returning a row that breaks `check`.
    func checkQuery(_ check: MigrationCheck) -> String {
        check.query.inlined(in: dialect)
    }

    /// A stage's statements in the order they run, and its checks' queries, as a dry run lists them.
    func listing(_ actions: [MigrationAction]) throws -> (sql: [String], checks: [String]) {
        var now: [String] = []
        var deferred: [String] = []
        var checks: [String] = []
        for action in actions {
            if case .check(let check) = action { checks.append(checkQuery(check)) }
            let statements = try statements(for: action)
            now += statements.now.map(\.sql)
            deferred += statements.deferred.map(\.sql)
        }
        return (now + deferred, checks)
    }

    private func alter(_ alteration: TableAlteration) throws -> Statements {
        let entity = alteration.entity
        let name = entity.name
        let table = quote(name)
        let definition = PostgresTableDefinition(entity: entity)
        let (current, wanted) = (alteration.current, alteration.wanted)
        var sql: [String] = []
        var deferred: [String] = []
        let renamedUnique = current.uniquenessConstraints.map { $0.map { alteration.renamed[$0] ?? $0 } }
        let replacesConstraints = renamedUnique != wanted.uniquenessConstraints
        if replacesConstraints {
            sql += current.uniquenessConstraints.indices.map { position in
                "ALTER TABLE \(table) DROP CONSTRAINT IF EXISTS \(quote(PostgresTableDefinition.uniqueConstraintName(name, position)))"
            }
        }
        sql += alteration.removed.map { "ALTER TABLE \(table) DROP COLUMN IF EXISTS \(quote($0))" }
        sql += alteration.renamed.sorted { $0.key < $1.key }.map {
            "ALTER TABLE \(table) RENAME COLUMN \(quote($0.key)) TO \(quote($0.value))"
        }
        if !current.hasVersionColumn {
            sql.append("ALTER TABLE \(table) ADD COLUMN \(quote(StoreLayout.versionColumn)) bigint NOT NULL DEFAULT 0")
        }
        if entity.tableHasEntityColumn, !current.definition.contains("\"\(StoreLayout.entityColumn)\"") {
            // A base model that gains its first subentity: its rows so far are the base's.
            sql.append("ALTER TABLE \(table) ADD COLUMN \(definition.entityColumn)")
        }
        for ((owner, index), (column, source)) in zip(entity.tableColumns, zip(wanted.columns, alteration.sources)) {
            let quoted = quote(column.name)
            switch source {
            case .value(let value):
                sql.append(
                    "ALTER TABLE \(table) ADD COLUMN \(definition.column(owner, index))"
                        + (value.map { " DEFAULT \(literal($0))" } ?? ""))
                if let foreignKey = definition.foreignKey(owner, index) { deferred.append(foreignKey) }
            case .coalesce(_, let value):
                sql.append("UPDATE \(table) SET \(quoted) = \(literal(value)) WHERE \(quoted) IS NULL")
                sql.append("ALTER TABLE \(table) ALTER COLUMN \(quoted) SET NOT NULL")
            case .column(let sourceName):
                guard let old = current.column(named: sourceName) else { continue }
                if old.isOptional != column.isOptional {
                    sql.append(
                        "ALTER TABLE \(table) ALTER COLUMN \(quoted) \(column.isOptional ? "DROP" : "SET") NOT NULL")
                }
                if old.destination != nil, old.definition != column.definition {
                    // Constraint names survive a rename, so the stored column's name finds them.
                    sql += try foreignKeyNames(name, sourceName).map {
                        "ALTER TABLE \(table) DROP CONSTRAINT \(quote($0))"
                    }
                    if let foreignKey = definition.foreignKey(owner, index) { deferred.append(foreignKey) }
                }
            }
        }
        if replacesConstraints {
            sql += definition.uniqueConstraints.map { "ALTER TABLE \(table) ADD \($0)" }
        }
        for statement in current.indexStatements where !wanted.indexStatements.contains(statement) {
            if let index = StoredEntity.quotedIdentifiers(in: statement).first {
                sql.append("DROP INDEX IF EXISTS \(quote(index))")
            }
        }
        deferred += wanted.indexStatements.filter { !current.indexStatements.contains($0) }
        return Statements(now: sql.map { (name, $0) }, deferred: deferred.map { (name, $0) })
    }

    /// A value as a PostgreSQL literal, for `DEFAULT` clauses and the expressions of checks and updates.
    func literal(_ value: StoredValue) -> String { dialect.literal(value) }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}
