/// One step of a planned migration, in no store's SQL: each store's executor spells it (SQLite rebuilds a changed
/// table, PostgreSQL alters it in place).
package enum MigrationAction {
    /// Create an entity's table, its indexes and, with `joinTables`, the join tables it owns (a hierarchy that
    /// models move into plans its join tables itself: some exist already).
    case createEntity(Schema.Entity, joinTables: Bool = true)
    /// Create the persistent-history tables (a store written before history was recorded).
    case createHistoryTables
    /// Bring history tables of an earlier layout version to the current one (version 1 gains key lists).
    case upgradeHistoryTables(from: Int)
    /// Change a stored table into the entity's shape.
    case alterTable(TableAlteration)
    /// Drop an entity's table and its rows.
    case dropEntity(String)
    /// Create a join table.
    case createJoinTable(StoredJoinTable)
    /// Replace a join table with another (a relationship renamed through `originalName:`), its rows carried over:
    /// `ownerSource` fills the new owner column, `targetSource` the new target column.
    case carryJoinTable(from: StoredJoinTable, to: StoredJoinTable, ownerSource: String, targetSource: String)
    /// Drop a join table and its rows.
    case dropJoinTable(String)
    /// A condition the stored data must meet before the actions after it run.
    case check(MigrationCheck)
    /// Set a moving model's table aside (renamed, its indexes dropped, so the hierarchy's table can take their
    /// names), before the hierarchy's table is created.
    case setAsideRows(RowMove)
    /// Carry a model's rows from its set-aside table into its new hierarchy's (a model moved under a base class),
    /// then drop the set-aside table.
    case moveRows(RowMove)
}

/// The rows of a model stored in a table of its own, moving into the table of the hierarchy it now belongs to:
/// each keeps its key, its version and its values, and names the model in the entity column.
package struct RowMove {
    /// The model's stored table (its entity's name).
    package let source: String
    /// The hierarchy's root, whose table the rows move into (created earlier in the migration).
    package let hierarchy: Schema.Entity
    /// Whether the stored table has the row-version column.
    package let sourceHasVersionColumn: Bool
    /// Each column of the hierarchy's table, with where its values come from.
    package let columns: [(name: String, source: TableAlteration.Source)]
    /// The names of the stored table's indexes.
    package let indexNames: [String]

    /// The name the stored table has while set aside.
    package var setAsideName: String { "strata_moving_\(source)" }

    /// The statements both stores run to set the table aside: its indexes dropped, the table renamed.
    package var setAsideStatements: [SQLFragment] {
        indexNames.map { SQLFragment(sql: "DROP INDEX IF EXISTS ") + .identifier($0) }
            + [
                SQLFragment(sql: "ALTER TABLE ") + .identifier(source) + SQLFragment(sql: " RENAME TO ")
                    + .identifier(setAsideName)
            ]
    }

    /// The statements both stores run to move the rows: copied from the set-aside table, then the store's
    /// `keepingKeys` statements (the hierarchy's keys continue after every key the model's table issued), then the
    /// set-aside table dropped (`dependents`: what the engine's `DROP TABLE` adds to drop what depends on it).
    package func statements(keepingKeys: [SQLFragment], dropping dependents: String = "") -> [SQLFragment] {
        let key = SQLFragment.identifier(StoreLayout.primaryKeyColumn)
        let version = SQLFragment.identifier(StoreLayout.versionColumn)
        let names = [key, version, .identifier(StoreLayout.entityColumn)] + columns.map { .identifier($0.name) }
        let values =
            [key, sourceHasVersionColumn ? version : SQLFragment(sql: "0"), .binding(.text(source))]
            + columns.map(\.source.sql)
        let insert =
            SQLFragment(sql: "INSERT INTO ") + .identifier(hierarchy.name) + SQLFragment(sql: " (")
            + .joined(names, separator: ", ") + SQLFragment(sql: ") SELECT ") + .joined(values, separator: ", ")
            + SQLFragment(sql: " FROM ") + .identifier(setAsideName)
        let drop = SQLFragment(sql: "DROP TABLE ") + .identifier(setAsideName) + SQLFragment(sql: dependents)
        return [insert] + keepingKeys + [drop]
    }
}

extension MigrationAction {
    /// The statements carrying a join table's rows over to another (`carryJoinTable`): the old table set aside, the
    /// new one created from its definition, the rows copied, the old one dropped. Plain SQL both stores run.
    package static func carryStatements(
        from old: StoredJoinTable, to table: StoredJoinTable, ownerSource: String, targetSource: String
    ) -> [SQLFragment] {
        let temporary = SQLFragment.identifier("strata_migrating_\(old.name)")
        return [
            SQLFragment(sql: "ALTER TABLE ") + .identifier(old.name) + SQLFragment(sql: " RENAME TO ") + temporary,
            SQLFragment(sql: "DROP INDEX IF EXISTS ") + .identifier(old.name + "_target_index"),
            SQLFragment(sql: table.definition),
            SQLFragment(sql: "INSERT INTO ") + .identifier(table.name) + SQLFragment(sql: " (")
                + .identifier(table.ownerColumn) + SQLFragment(sql: ", ") + .identifier(table.targetColumn)
                + SQLFragment(sql: ") SELECT ") + .identifier(ownerSource) + SQLFragment(sql: ", ")
                + .identifier(targetSource) + SQLFragment(sql: " FROM ") + temporary,
            SQLFragment(sql: "DROP TABLE ") + temporary,
        ]
    }
}

/// How one stored table becomes an entity's table: where each of its columns' values come from, which columns are
/// renamed or removed, and whether anything but added columns changes.
package struct TableAlteration {
    /// Where a column's values come from.
    package enum Source: Equatable {
        /// The stored column of that name.
        case column(String)
        /// The stored column of that name, its NULLs replaced by the value (optional → required with a default).
        case coalesce(String, StoredValue)
        /// A new column: every stored row gets the value (`nil`: NULL).
        case value(StoredValue?)

        /// The source as an SQL expression over the stored table.
        package var sql: SQLFragment {
            switch self {
            case .column(let name): .identifier(name)
            case .coalesce(let name, let value):
                SQLFragment(sql: "coalesce(") + .identifier(name) + SQLFragment(sql: ", ") + .binding(value)
                    + SQLFragment(sql: ")")
            case .value(let value): value.map(SQLFragment.binding) ?? SQLFragment(sql: "NULL")
            }
        }
    }

    /// The entity whose table changes.
    package let entity: Schema.Entity
    /// The table as stored.
    package let current: StoredEntity
    /// The table as the entity needs it.
    package let wanted: StoredEntity
    /// One source per column of `wanted`, in order.
    package let sources: [Source]
    /// Stored column names carried over under a new name (`originalName:`): old → new.
    package let renamed: [String: String]
    /// Stored columns no property carries over.
    package let removed: [String]
    /// Whether anything but added columns changes (SQLite must then rebuild the table).
    package let changesMoreThanColumns: Bool

    /// The columns of `wanted` that are new, with the value stored rows get.
    package var addedColumns: [(column: StoredColumn, value: StoredValue?)] {
        zip(wanted.columns, sources).compactMap { column, source in
            if case .value(let value) = source { (column, value) } else { nil }
        }
    }
}

/// A condition the stored data must meet for a planned change to be lossless, checked inside the migration's
/// transaction (after any custom stage's `willMigrate` had its chance to fix the data).
package struct MigrationCheck: Equatable {
    /// What the stored rows must satisfy.
    package enum Condition: Equatable {
        /// The table has no rows (a non-optional attribute without a default is added).
        case noRows
        /// The column is never NULL (an optional attribute without a default becomes non-optional).
        case noNulls(String)
        /// No two rows share the sources' values (a uniqueness constraint is added).
        case noDuplicates([TableAlteration.Source])
    }

    /// The entity whose table is checked.
    package let entity: String
    /// The properties the condition is about, named in the refusal.
    package let properties: [String]
    /// What the rows must satisfy.
    package let condition: Condition
    /// Why the data must meet the condition, and which stage fixes it.
    package let reason: String

    /// The query returning a row that breaks the condition; for duplicates, the shared values and their count.
    package var query: SQLFragment {
        let from = SQLFragment(sql: " FROM ") + .identifier(entity)
        switch condition {
        case .noRows:
            return SQLFragment(sql: "SELECT 1") + from + SQLFragment(sql: " LIMIT 1")
        case .noNulls(let column):
            return SQLFragment(sql: "SELECT 1") + from + SQLFragment(sql: " WHERE ") + .identifier(column)
                + SQLFragment(sql: " IS NULL LIMIT 1")
        case .noDuplicates(let sources):
            let expressions = sources.map(\.sql)
            let columns = SQLFragment.joined(expressions, separator: ", ")
            let present = SQLFragment.joined(
                expressions.map { $0 + SQLFragment(sql: " IS NOT NULL") }, separator: " AND ")
            return SQLFragment(sql: "SELECT ") + columns + SQLFragment(sql: ", count(*)") + from
                + SQLFragment(sql: " WHERE ") + present + SQLFragment(sql: " GROUP BY ") + columns
                + SQLFragment(sql: " HAVING count(*) > 1 LIMIT 1")
        }
    }

    /// The refusal for a store where `query` returned `row`.
    package func refusal(row: [StoredValue], path: String) -> StrataError {
        var detail = reason
        if case .noDuplicates = condition {
            let values = row.dropLast().map(Self.describe).joined(separator: ", ")
            let count: Int64 = row.last.flatMap { if case .integer(let count) = $0 { count } else { nil } } ?? 2
            detail += " (\(count) rows hold \(values))"
        }
        return StrataError.migrationRefused(
            path: path, entity: entity, property: properties.joined(separator: ", "), reason: detail)
    }

    private static func describe(_ value: StoredValue) -> String {
        switch value {
        case .null: "nil"
        case .integer(let integer): "\(integer)"
        case .real(let real): "\(real)"
        case .text(let text): "\"\(text)\""
        case .blob(let bytes): "\(bytes.count) bytes"
        }
    }
}
