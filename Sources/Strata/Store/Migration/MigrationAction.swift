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
    package func setAsideStatements(quote: (String) -> String) -> [String] {
        indexNames.map { "DROP INDEX IF EXISTS \(quote($0))" }
            + ["ALTER TABLE \(quote(source)) RENAME TO \(quote(setAsideName))"]
    }

    /// The statements both stores run to move the rows: copied from the set-aside table, then the store's
    /// `keepingKeys` statements (the hierarchy's keys continue after every key the model's table issued), then the
    /// set-aside table dropped (`dependents`: what the engine's `DROP TABLE` adds to drop what depends on it).
    package func statements(
        quote: (String) -> String, literal: (StoredValue) -> String, keepingKeys: [String],
        dropping dependents: String = ""
    ) -> [String] {
        let key = quote(StoreLayout.primaryKeyColumn)
        let version = quote(StoreLayout.versionColumn)
        let names = [key, version, quote(StoreLayout.entityColumn)] + columns.map { quote($0.name) }
        let values =
            [key, sourceHasVersionColumn ? version : "0", literal(.text(source))]
            + columns.map { $0.source.sql(quote: quote, literal: literal) }
        return [
            "INSERT INTO \(quote(hierarchy.name)) (\(names.joined(separator: ", "))) "
                + "SELECT \(values.joined(separator: ", ")) FROM \(quote(setAsideName))"
        ] + keepingKeys + ["DROP TABLE \(quote(setAsideName))\(dependents)"]
    }
}

extension MigrationAction {
    /// The statements carrying a join table's rows over to another (`carryJoinTable`): the old table set aside, the
    /// new one created from its definition, the rows copied, the old one dropped. Plain SQL both stores run.
    package static func carryStatements(
        from old: StoredJoinTable, to table: StoredJoinTable, ownerSource: String, targetSource: String,
        quote: (String) -> String
    ) -> [String] {
        let temporary = quote("strata_migrating_\(old.name)")
        return [
            "ALTER TABLE \(quote(old.name)) RENAME TO \(temporary)",
            "DROP INDEX IF EXISTS \(quote(old.name + "_target_index"))",
            table.definition,
            "INSERT INTO \(quote(table.name)) (\(quote(table.ownerColumn)), \(quote(table.targetColumn))) "
                + "SELECT \(quote(ownerSource)), \(quote(targetSource)) FROM \(temporary)",
            "DROP TABLE \(temporary)",
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
        package func sql(quote: (String) -> String, literal: (StoredValue) -> String) -> String {
            switch self {
            case .column(let name): quote(name)
            case .coalesce(let name, let value): "coalesce(\(quote(name)), \(literal(value)))"
            case .value(let value): value.map(literal) ?? "NULL"
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
    package func query(quote: (String) -> String, literal: (StoredValue) -> String) -> String {
        let table = quote(entity)
        switch condition {
        case .noRows:
            return "SELECT 1 FROM \(table) LIMIT 1"
        case .noNulls(let column):
            return "SELECT 1 FROM \(table) WHERE \(quote(column)) IS NULL LIMIT 1"
        case .noDuplicates(let sources):
            let expressions = sources.map { $0.sql(quote: quote, literal: literal) }
            let columns = expressions.joined(separator: ", ")
            let present = expressions.map { "\($0) IS NOT NULL" }.joined(separator: " AND ")
            return
                "SELECT \(columns), count(*) FROM \(table) WHERE \(present) GROUP BY \(columns) HAVING count(*) > 1 LIMIT 1"
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

extension StoredValue {
    /// The value as an SQLite literal, for `DEFAULT` clauses and copy expressions of a migration (DDL takes no
    /// bindings), and for the changes a dry run describes.
    package var sqlLiteral: String {
        switch self {
        case .null: return "NULL"
        case .integer(let integer): return "\(integer)"
        case .real(let real):
            if real.isNaN { return "'NaN'" }
            if real.isInfinite { return real < 0 ? "-1e999" : "1e999" }
            return "\(real)"
        case .text(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes):
            let digits = Array("0123456789ABCDEF")
            return "X'" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] }) + "'"
        }
    }
}
