/// Spells a planned migration's actions in SQLite's SQL: a table whose columns are only added gets
/// `ALTER TABLE … ADD COLUMN`; any other change rebuilds it (SQLite's procedure: a new table filled from the old
/// one, which it then replaces), since SQLite's `ALTER TABLE` can't change a column or a constraint.
struct SQLiteMigrationSQL {
    let dialect: SQLiteDialect

    /// The statements of one action; none for a check (run as a query).
    func statements(for action: MigrationAction) -> [String] {
        switch action {
        case .createEntity(let entity, let joinTables):
            let table = TableDefinition(entity: entity, dialect: dialect)
            return joinTables ? table.statements : table.statementsWithoutJoinTables
        case .createHistoryTables:
            return HistoryTables.createStatements(dialect: dialect)
        case .upgradeHistoryTables(let version):
            return HistoryTables.upgradeStatements(from: version, dialect: dialect)
        case .alterTable(let alteration):
            return alteration.changesMoreThanColumns ? rebuild(alteration) : addColumns(alteration)
        case .dropEntity(let name), .dropJoinTable(let name):
            return ["DROP TABLE \(quote(name))"]
        case .createJoinTable(let table):
            return [table.definition]
        case .carryJoinTable(let old, let table, let ownerSource, let targetSource):
            return MigrationAction.carryStatements(
                from: old, to: table, ownerSource: ownerSource, targetSource: targetSource
            ).map { $0.inlined(in: dialect) }
        case .check:
            return []
        case .setAsideRows(let move):
            return move.setAsideStatements.map { $0.inlined(in: dialect) }
        case .moveRows(let move):
            // The hierarchy's table is new: its mark is the moved model's.
            return move.statements(
                keepingKeys: [SQLitePrimaryKeys.carry(from: move.source, to: move.hierarchy.name)]
            ).map { $0.inlined(in: dialect) }
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
    private func addColumns(_ alteration: TableAlteration) -> [String] {
        let table = quote(alteration.entity.name)
        var statements: [String] = []
        if !alteration.current.hasVersionColumn {
            statements.append("ALTER TABLE \(table) ADD COLUMN \(TableDefinition.versionColumnDefinition)")
        }
        // A table that becomes a hierarchy's (a first subclass) gets the entity column; its rows are the root's.
        let definition = TableDefinition(entity: alteration.entity, dialect: dialect)
        if alteration.entity.tableHasEntityColumn,
            !alteration.current.definition.contains(quote(StoreLayout.entityColumn))
        {
            statements.append("ALTER TABLE \(table) ADD COLUMN \(definition.entityColumnDefinition)")
        }
        for (column, value) in alteration.addedColumns {
            let definition = column.definition + (value.map { " DEFAULT \(dialect.literal($0))" } ?? "")
            statements.append("ALTER TABLE \(table) ADD COLUMN \(definition)")
        }
        let (current, wanted) = (alteration.current.indexStatements, alteration.wanted.indexStatements)
        for statement in current where !wanted.contains(statement) {
            if let name = StoredEntity.quotedIdentifiers(in: statement).first {
                statements.append("DROP INDEX \(quote(name))")
            }
        }
        return statements + wanted.filter { !current.contains($0) }
    }

    /// SQLite's table rebuild: a new table in the target shape filled from the old one, which it then replaces.
    private func rebuild(_ alteration: TableAlteration) -> [String] {
        let entity = alteration.entity
        let definition = TableDefinition(entity: entity, dialect: dialect)
        let table = quote(entity.name)
        let temporary = quote("strata_migrating_\(entity.name)")
        let key = quote(StoreLayout.primaryKeyColumn)
        let createTable = "CREATE TABLE \(table) ("
        let create =
            definition.statements[0].hasPrefix(createTable)
            ? "CREATE TABLE \(temporary) (" + definition.statements[0].dropFirst(createTable.count)
            : definition.statements[0]
        // Rows keep their versions (a table without them starts them at the column's default).
        let version = alteration.current.hasVersionColumn ? [quote(StoreLayout.versionColumn)] : []
        // A hierarchy's rows keep their entity; a table that becomes one holds the root's rows only.
        let entityColumn = quote(StoreLayout.entityColumn)
        let kind =
            entity.tableHasEntityColumn
            ? [alteration.current.definition.contains(entityColumn) ? entityColumn : "'\(entity.rootEntity.name)'"] : []
        let columns =
            [key] + version + (kind.isEmpty ? [] : [entityColumn])
            + entity.tableColumns.map { quote($0.entity.persistentProperties[$0.index].name) }
        let expressions = kind + alteration.sources.map { $0.sql.inlined(in: dialect) }
        return [
            create,
            "INSERT INTO \(temporary) (\(columns.joined(separator: ", "))) SELECT \(([key] + version + expressions).joined(separator: ", ")) FROM \(table)",
            "DROP TABLE \(table)",
            "ALTER TABLE \(temporary) RENAME TO \(table)",
        ] + definition.indexStatements
    }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}
