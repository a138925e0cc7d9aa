import Strata

/// Spells a planned migration's actions in PostgreSQL's SQL, for ``PostgresMigrator`` to run and for a dry run to
/// list. A changed table is altered in place — uniqueness constraints dropped (their names follow their position),
/// columns dropped, renamed, added, their `NOT NULL` and foreign keys changed, constraints added again, indexes
/// diffed — rather than rebuilt, so its rows keep their keys, versions and the foreign keys pointing at them.
/// Foreign keys, join tables and new indexes come after every table of the stage (``Statements/deferred``), so new
/// tables may refer to each other in any order. Statements are written as fragments and rendered with their values
/// as literals (``SQLFragment/inlined(in:)``: DDL takes no bindings).
struct PostgresMigrationSQL {
    /// The statements of one action, each with the entity it changes (named when PostgreSQL refuses it).
    struct Statements {
        var now: [(entity: String, sql: String)] = []
        var deferred: [(entity: String, sql: String)] = []

        init(now: [(entity: String, sql: SQLFragment)] = [], deferred: [(entity: String, sql: SQLFragment)] = []) {
            let dialect = PostgreSQLDialect()
            self.now = now.map { ($0.entity, $0.sql.inlined(in: dialect)) }
            self.deferred = deferred.map { ($0.entity, $0.sql.inlined(in: dialect)) }
        }
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
                WHERE c.contype = 'f' AND c.conrelid = to_regclass(\(bind: .text(quote(table)))) \
                AND a.attname = \(bind: .text(column)) ORDER BY c.conname
                """)
            return (0..<rows.count).compactMap { rows.text(row: $0, column: 0) }
        }
    }

    /// The statements of `action`; none for a check (run as a query: ``checkQuery(_:)``).
    /// - Throws: ``PostgresError`` when the catalog can't be read.
    func statements(for action: MigrationAction) throws -> Statements {
        switch action {
        case .check:
            return Statements()
        case .createEntity(let entity, let joinTables):
            let table = PostgresTableDefinition(entity: entity)
            return Statements(
                now: [(entity.name, table.createTable), (entity.name, resumeIssuedKeys(entity.name))],
                deferred: (table.foreignKeys + (joinTables ? table.joinTables : []) + table.indexes).map {
                    (entity.name, $0)
                })
        case .createHistoryTables, .upgradeHistoryTables:
            // Every statement is `IF NOT EXISTS`, so the same list brings older tables up to date.
            return Statements(now: PostgresHistoryTables.createStatements.map { ("history", $0) })
        case .alterTable(let alteration):
            return try alter(alteration)
        case .dropEntity(let name):
            // CASCADE drops the foreign keys other tables hold to it; their own changes come in this stage.
            return Statements(now: [(name, keepIssuedKeys(name)), (name, "DROP TABLE \(identifier: name) CASCADE")])
        case .createJoinTable(let table):
            // The definition the stored description records, run as written.
            return Statements(deferred: [(table.ownerSide, SQLFragment(sql: table.definition))])
        case .carryJoinTable(let old, let table, let ownerSource, let targetSource):
            return Statements(
                now: MigrationAction.carryStatements(
                    from: old, to: table, ownerSource: ownerSource, targetSource: targetSource
                ).map { (table.ownerSide, $0) })
        case .dropJoinTable(let name):
            return Statements(now: [(name, "DROP TABLE IF EXISTS \(identifier: name)")])
        case .setAsideRows(let move):
            return Statements(now: move.setAsideStatements.map { (move.source, $0) })
        case .moveRows(let move):
            // The rows keep their keys, so the hierarchy's key sequence continues after the largest, and after every
            // key the model's own sequence issued (rows deleted since), before that sequence is dropped with its table.
            let table = SQLFragment.identifier(move.hierarchy.name)
            let key = SQLFragment.identifier(StoreLayout.primaryKeyColumn)
            let sequence: SQLFragment =
                "SELECT setval(\(serialSequence(move.hierarchy.name)), greatest((SELECT coalesce(max(\(key)), 0) "
                + "FROM \(table)), \(issuedKeys(move.setAsideName)), \(issuedKeys(move.hierarchy.name))) + 1, false)"
            // CASCADE drops the foreign keys that join tables still hold to the set-aside table; those tables are
            // carried over to the hierarchy's table after this.
            return Statements(
                now: move.statements(keepingKeys: [sequence], dropping: " CASCADE").map { (move.hierarchy.name, $0) })
        }
    }

    /// `table`'s identity sequence, by name (`pg_get_serial_sequence` takes the table's name quoted, as SQL text).
    private func serialSequence(_ table: String) -> SQLFragment {
        "pg_get_serial_sequence(\(bind: .text(quote(table))), \(bind: .text(StoreLayout.primaryKeyColumn)))"
    }

    /// The last key `table`'s identity sequence issued, `NULL` when none.
    private func lastIssuedKey(_ table: String) -> SQLFragment {
        "pg_sequence_last_value(\(serialSequence(table))::regclass)"
    }

    /// The last key `table`'s identity sequence issued, 0 when none.
    private func issuedKeys(_ table: String) -> SQLFragment { "coalesce(\(lastIssuedKey(table)), 0)" }

    /// The metadata key keeping the last key a dropped table's sequence issued.
    private func issuedKeysKey(_ table: String) -> String { "primaryKeyMax." + table }

    /// Keeps the last key `table`'s identity sequence issued, which `DROP TABLE` drops with it, so a table of that
    /// name created later continues after it (a key is never issued twice in a store, as on SQLite).
    private func keepIssuedKeys(_ table: String) -> SQLFragment {
        let metadata = SQLFragment.identifier(StoreLayout.metadataTable)
        return "INSERT INTO \(metadata) (key, value) SELECT \(bind: .text(issuedKeysKey(table))), "
            + "\(issuedKeys(table))::text ON CONFLICT (key) DO UPDATE "
            + "SET value = greatest(\(metadata).value::bigint, EXCLUDED.value::bigint)::text"
    }

    /// Starts a new table's identity sequence after the last key a dropped table of its name issued, if any.
    private func resumeIssuedKeys(_ table: String) -> SQLFragment {
        "SELECT setval(\(serialSequence(table)), value::bigint) "
            + "FROM \(identifier: StoreLayout.metadataTable) WHERE key = \(bind: .text(issuedKeysKey(table))) "
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
        let alterTable: SQLFragment = "ALTER TABLE \(identifier: name) "
        let definition = PostgresTableDefinition(entity: entity)
        let (current, wanted) = (alteration.current, alteration.wanted)
        var sql: [SQLFragment] = []
        var deferred: [SQLFragment] = []
        let renamedUnique = current.uniquenessConstraints.map { $0.map { alteration.renamed[$0] ?? $0 } }
        let replacesConstraints = renamedUnique != wanted.uniquenessConstraints
        if replacesConstraints {
            sql += current.uniquenessConstraints.indices.map { position in
                let constraint = PostgresTableDefinition.uniqueConstraintName(name, position)
                return alterTable + "DROP CONSTRAINT IF EXISTS \(identifier: constraint)"
            }
        }
        sql += alteration.removed.map { alterTable + "DROP COLUMN IF EXISTS \(identifier: $0)" }
        sql += alteration.renamed.sorted { $0.key < $1.key }.map {
            alterTable + "RENAME COLUMN \(identifier: $0.key) TO \(identifier: $0.value)"
        }
        if !current.hasVersionColumn {
            sql.append(alterTable + "ADD COLUMN \(identifier: StoreLayout.versionColumn) bigint NOT NULL DEFAULT 0")
        }
        if entity.tableHasEntityColumn, !current.definition.contains(quote(StoreLayout.entityColumn)) {
            // A base model that gains its first subentity: its rows so far are the base's.
            sql.append(alterTable + "ADD COLUMN \(definition.entityColumn)")
        }
        for ((owner, index), (column, source)) in zip(entity.tableColumns, zip(wanted.columns, alteration.sources)) {
            let quoted = SQLFragment.identifier(column.name)
            switch source {
            case .value(let value):
                sql.append(
                    alterTable + "ADD COLUMN \(definition.column(owner, index))"
                        + (value.map { " DEFAULT \(bind: $0)" } ?? ""))
                if let foreignKey = definition.foreignKey(owner, index) { deferred.append(foreignKey) }
            case .coalesce(_, let value):
                sql.append("UPDATE \(identifier: name) SET \(quoted) = \(bind: value) WHERE \(quoted) IS NULL")
                sql.append(alterTable + "ALTER COLUMN \(quoted) SET NOT NULL")
            case .column(let sourceName):
                guard let old = current.column(named: sourceName) else { continue }
                if old.isOptional != column.isOptional {
                    sql.append(
                        alterTable + "ALTER COLUMN \(quoted) \(sql: column.isOptional ? "DROP" : "SET") NOT NULL")
                }
                if old.destination != nil, old.definition != column.definition {
                    // Constraint names survive a rename, so the stored column's name finds them.
                    sql += try foreignKeyNames(name, sourceName).map {
                        alterTable + "DROP CONSTRAINT \(identifier: $0)"
                    }
                    if let foreignKey = definition.foreignKey(owner, index) { deferred.append(foreignKey) }
                }
            }
        }
        if replacesConstraints {
            sql += definition.uniqueConstraints.map { alterTable + "ADD \($0)" }
        }
        for statement in current.indexStatements where !wanted.indexStatements.contains(statement) {
            if let index = StoredEntity.quotedIdentifiers(in: statement).first {
                sql.append("DROP INDEX IF EXISTS \(identifier: index)")
            }
        }
        // The new indexes as the stored description records them, run as written.
        deferred += wanted.indexStatements.filter { !current.indexStatements.contains($0) }.map(SQLFragment.init(sql:))
        return Statements(now: sql.map { (name, $0) }, deferred: deferred.map { (name, $0) })
    }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}
