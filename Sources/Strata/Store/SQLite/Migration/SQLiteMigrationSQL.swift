/// Spells a planned migration's actions in SQLite's SQL: a table whose columns are only added gets
/// `ALTER TABLE … ADD COLUMN`; any other change rebuilds it (SQLite's procedure: a new table filled from the old
/// one, which it then replaces), since SQLite's `ALTER TABLE` can't change a column or a constraint. The statements
/// are fragments, rendered with their values as literals (``SQLFragment/inlined(in:)``) by ``statements(for:)``.
struct SQLiteMigrationSQL {
    let dialect: SQLiteDialect

    /// The statements of one action as SQLite runs them; none for a check (run as a query).
    func statements(for action: MigrationAction) -> [String] {
        fragments(for: action).map { $0.inlined(in: dialect) }
    }

    private func fragments(for action: MigrationAction) -> [SQLFragment] {
        switch action {
        case .createEntity(let entity, let joinTables):
            let table = TableDefinition(entity: entity, dialect: dialect)
            return joinTables ? table.statements : table.statementsWithoutJoinTables
        case .createHistoryTables:
            return HistoryTables.createStatements
        case .upgradeHistoryTables(let version):
            return HistoryTables.upgradeStatements(from: version)
        case .alterTable(let alteration):
            return alteration.changesMoreThanColumns ? rebuild(alteration) : addColumns(alteration)
        case .dropEntity(let name), .dropJoinTable(let name):
            return ["DROP TABLE \(identifier: name)"]
        case .createJoinTable(let table):
            return [SQLFragment(sql: table.definition)]
        case .carryJoinTable(let old, let table, let ownerSource, let targetSource):
            return MigrationAction.carryStatements(
                from: old, to: table, ownerSource: ownerSource, targetSource: targetSource)
        case .check:
            return []
        case .setAsideRows(let move):
            return move.setAsideStatements
        case .moveRows(let move):
            // The hierarchy's table is new: its mark is the moved model's.
            return move.statements(keepingKeys: [SQLitePrimaryKeys.carry(from: move.source, to: move.hierarchy.name)])
        }
    }

    /// The statements a dry run lists for `actions`, and the queries of their checks.
    func listing(_ actions: [MigrationAction]) -> (sql: [String], checks: [String]) {
        var sql: [String] = []
        var checks: [String] = []
        for action in actions {
            if case .check(let check) = action {
                checks.append(check.query.inlined(in: dialect))
            } else {
                sql += statements(for: action)
            }
        }
        return (sql, checks)
    }

    /// Added columns (and the row version, for a table written before it existed), then changed indexes.
    private func addColumns(_ alteration: TableAlteration) -> [SQLFragment] {
        let addColumn: SQLFragment = "ALTER TABLE \(identifier: alteration.entity.name) ADD COLUMN "
        var statements: [SQLFragment] = []
        if !alteration.current.hasVersionColumn {
            statements.append(addColumn + TableDefinition.versionColumnDefinition)
        }
        // A table that becomes a hierarchy's (a first subclass) gets the entity column; its rows are the root's.
        let definition = TableDefinition(entity: alteration.entity, dialect: dialect)
        if alteration.entity.tableHasEntityColumn,
            !alteration.current.definition.contains(dialect.quote(identifier: StoreLayout.entityColumn))
        {
            statements.append(addColumn + definition.entityColumnDefinition)
        }
        for (column, value) in alteration.addedColumns {
            // The column as the stored description records it, with the value rows already stored take.
            statements.append(
                addColumn + SQLFragment(sql: column.definition) + (value.map { " DEFAULT \(bind: $0)" } ?? ""))
        }
        let (current, wanted) = (alteration.current.indexStatements, alteration.wanted.indexStatements)
        for statement in current where !wanted.contains(statement) {
            if let name = StoredEntity.quotedIdentifiers(in: statement).first {
                statements.append("DROP INDEX \(identifier: name)")
            }
        }
        return statements + wanted.filter { !current.contains($0) }.map(SQLFragment.init(sql:))
    }

    /// SQLite's table rebuild: a new table in the target shape filled from the old one, which it then replaces.
    private func rebuild(_ alteration: TableAlteration) -> [SQLFragment] {
        let entity = alteration.entity
        let definition = TableDefinition(entity: entity, dialect: dialect)
        let table = SQLFragment.identifier(entity.name)
        let temporaryName = "strata_migrating_\(entity.name)"
        let temporary = SQLFragment.identifier(temporaryName)
        let key = SQLFragment.identifier(StoreLayout.primaryKeyColumn)
        // Rows keep their versions (a table without them starts them at the column's default).
        let version = alteration.current.hasVersionColumn ? [SQLFragment.identifier(StoreLayout.versionColumn)] : []
        // A hierarchy's rows keep their entity; a table that becomes one holds the root's rows only.
        let entityColumn = SQLFragment.identifier(StoreLayout.entityColumn)
        let kind: [SQLFragment] =
            !entity.tableHasEntityColumn
            ? []
            : alteration.current.definition.contains(dialect.quote(identifier: StoreLayout.entityColumn))
                ? [entityColumn] : ["\(bind: .text(entity.rootEntity.name))"]
        let columns =
            [key] + version + (kind.isEmpty ? [] : [entityColumn])
            + entity.tableColumns.map { SQLFragment.identifier($0.entity.persistentProperties[$0.index].name) }
        let expressions = [key] + version + kind + alteration.sources.map(\.sql)
        return [
            definition.createTable(named: temporaryName),
            "INSERT INTO \(temporary) (\(SQLFragment.joined(columns, separator: ", "))) "
                + "SELECT \(SQLFragment.joined(expressions, separator: ", ")) FROM \(table)",
            "DROP TABLE \(table)",
            "ALTER TABLE \(temporary) RENAME TO \(table)",
        ] + definition.indexStatements
    }
}
