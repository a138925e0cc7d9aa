/// The SQL of a save's statements in one dialect, written once per shape: every store runs the same statements,
/// spelled with its own quotes and placeholders. The texts are kept in the store's ``SaveStatementCache`` from one
/// save to the next, so a save of a shape saved before builds and renders no SQL, and an executor finds what it
/// prepared for the text.
struct SaveStatements<Dialect: SQLDialect> {
    let dialect: Dialect
    /// Appended to a `SELECT` of rows the save is about to write (`SaveExecutor.rowLock`).
    let rowLock: String
    let insertedKeys: InsertedKeys
    private let cache: SaveStatementCache

    init(dialect: Dialect, rowLock: String, insertedKeys: InsertedKeys, cache: SaveStatementCache) {
        self.dialect = dialect
        self.rowLock = rowLock
        self.insertedKeys = insertedKeys
        self.cache = cache
    }

    private typealias Key = SaveStatementCache.Key

    /// The statement of a shape, built once and rendered in the dialect: its placeholders numbered in order, for the
    /// values the executor binds row by row, and the values the shape itself holds written as literals.
    private func sql(
        _ key: Key, _ entity: Schema.Entity, returnsRows: Bool, assignsKey: Bool = false,
        historyAttributeNames: () -> String? = { nil }, _ build: () -> SQLFragment
    ) -> SaveSQL {
        if let sql = cache[key] { return sql }
        let sql = SaveSQL(
            build().inlined(in: dialect), entity: entity, returnsRows: returnsRows, assignsKey: assignsKey,
            historyAttributeNames: historyAttributeNames())
        cache[key] = sql
        return sql
    }

    /// `INSERT` of the entity's columns (`ON CONFLICT DO NOTHING` for an upsert, whose conflict is looked up again),
    /// the key first where the executor assigns it.
    func insert(_ entity: Schema.Entity, ignoringConflicts: Bool) -> SaveSQL {
        let returnsKey = insertedKeys == .returned
        let assignsKey = insertedKeys == .assigned
        return sql(
            Key(kind: .insert(ignoringConflicts: ignoringConflicts), entity: ObjectIdentifier(entity)), entity,
            returnsRows: returnsKey, assignsKey: assignsKey
        ) {
            let columns = entity.columnPropertyIndexes
            var names =
                (assignsKey ? [Self.primaryKey] : [])
                + columns.map { SQLFragment.identifier(entity.persistentProperties[$0].name) }
            var values = Array(repeating: SQLFragment.parameter, count: names.count)
            if entity.tableHasEntityColumn {
                // Written in the text: the entity's name, constant for the statement.
                names.append(.identifier(StoreLayout.entityColumn))
                values.append(.binding(.text(entity.name)))
            }
            let body: SQLFragment =
                names.isEmpty
                ? "DEFAULT VALUES"
                : "(\(.joined(names, separator: ", "))) VALUES (\(.joined(values, separator: ", ")))"
            return
                "INSERT INTO \(identifier: entity.tableName) \(body)\(sql: ignoringConflicts ? " ON CONFLICT DO NOTHING" : "")"
                + (returnsKey ? " RETURNING \(Self.primaryKey)" : "")
        }
    }

    /// `UPDATE` of `columns` and the version, applied only while the row has the version bound last, carrying the
    /// history's names of the properties it writes. The shape saved last is taken without a lookup
    /// (``SaveStatementCache/lastCheckedUpdate(of:writing:)``).
    func checkedUpdate(_ entity: Schema.Entity, columns: ArraySlice<StoreChanges.UpdateColumn>) -> SaveSQL {
        if let last = cache.lastCheckedUpdate(of: entity, writing: columns) { return last }
        let indexes = columns.map(\.index)
        let sql = sql(
            Key(kind: .checkedUpdate, entity: ObjectIdentifier(entity), columns: indexes), entity, returnsRows: false,
            historyAttributeNames: { entity.historyAttributeNames(indexes) }
        ) {
            "UPDATE \(identifier: entity.tableName) SET \(Self.assignments(entity, indexes)) "
                + "WHERE \(Self.primaryKey) = \(.parameter) AND \(Self.version) = \(.parameter)"
        }
        cache.noteCheckedUpdate(sql, columns: indexes)
        return sql
    }

    /// `UPDATE` of `columns` and the version whatever the row's version (a conflict resolved, an upsert).
    func update(_ entity: Schema.Entity, columns: [Int], returningVersion: Bool) -> SaveSQL {
        sql(
            Key(kind: .update(returningVersion: returningVersion), entity: ObjectIdentifier(entity), columns: columns),
            entity,
            returnsRows: returningVersion
        ) {
            "UPDATE \(identifier: entity.tableName) SET \(Self.assignments(entity, columns)) WHERE \(Self.primaryKey) = \(.parameter)"
                + (returningVersion ? " RETURNING \(Self.version)" : "")
        }
    }

    /// `DELETE` of one row by key (and, `checked`, version), returning the entity's preserved values when asked.
    func delete(_ entity: Schema.Entity, checked: Bool, returningPreserved: Bool) -> SaveSQL {
        let returning = returningPreserved && !entity.preservedPropertyIndexes.isEmpty
        return sql(
            Key(kind: .delete(checked: checked, returning: returning), entity: ObjectIdentifier(entity)), entity,
            returnsRows: returning
        ) {
            "DELETE FROM \(identifier: entity.tableName) WHERE \(Self.primaryKey) = \(.parameter)"
                + (checked ? " AND \(Self.version) = \(.parameter)" : "")
                + (returning ? " RETURNING \(Self.columns(entity, entity.preservedPropertyIndexes))" : "")
        }
    }

    /// `SELECT` of a row's version and columns by key, locked.
    func storedRow(_ entity: Schema.Entity) -> SaveSQL {
        sql(Key(kind: .storedRow, entity: ObjectIdentifier(entity)), entity, returnsRows: true) {
            let selected = [Self.version] + entity.columnPropertyIndexes.map { Self.column(entity, $0) }
            return "SELECT \(.joined(selected, separator: ", ")) FROM \(identifier: entity.tableName) "
                + "WHERE \(Self.primaryKey) = \(.parameter)\(sql: rowLock)"
        }
    }

    /// `SELECT` of the key of the row holding the bound values of `properties` (a uniqueness constraint), the
    /// properties whose value is NULL (`nulls`) matched with `IS NULL`, as the constraint treats them.
    func uniqueRow(_ entity: Schema.Entity, properties: [Int], nulls: [Bool]) -> SaveSQL {
        sql(
            Key(kind: .uniqueRow(nulls: nulls), entity: ObjectIdentifier(entity), columns: properties), entity,
            returnsRows: true
        ) {
            let condition = zip(properties, nulls).map { property, isNull -> SQLFragment in
                isNull ? "\(Self.column(entity, property)) IS NULL" : "\(Self.column(entity, property)) = \(.parameter)"
            }
            return "SELECT \(Self.primaryKey) FROM \(identifier: entity.tableName) "
                + "WHERE \(.joined(condition, separator: " AND ")) LIMIT 1\(sql: rowLock)"
        }
    }

    /// `UPDATE` of one foreign-key column by key.
    func foreignKey(_ entity: Schema.Entity, column name: String) -> SaveSQL {
        sql(Key(kind: .foreignKey, entity: ObjectIdentifier(entity), name: name), entity, returnsRows: false) {
            "UPDATE \(identifier: entity.tableName) SET \(identifier: name) = \(.parameter) WHERE \(Self.primaryKey) = \(.parameter)"
        }
    }

    /// `INSERT` of a join-table row (nothing when it is there already) or `DELETE` of one.
    func join(_ change: StoreChanges.JoinChange, inserting: Bool) -> SaveSQL {
        let name = change.table + "\u{0}" + change.ownerColumn
        return sql(
            Key(kind: inserting ? .joinInsert : .joinDelete, entity: ObjectIdentifier(change.entity), name: name),
            change.entity,
            returnsRows: false
        ) {
            let (table, owner, target) = (change.table, change.ownerColumn, change.targetColumn)
            return inserting
                ? "INSERT INTO \(identifier: table) (\(identifier: owner), \(identifier: target)) VALUES (\(.parameter), \(.parameter)) ON CONFLICT DO NOTHING"
                : "DELETE FROM \(identifier: table) WHERE \(identifier: owner) = \(.parameter) AND \(identifier: target) = \(.parameter)"
        }
    }

    private static var primaryKey: SQLFragment { .identifier(StoreLayout.primaryKeyColumn) }
    private static var version: SQLFragment { .identifier(StoreLayout.versionColumn) }
    private static func column(_ entity: Schema.Entity, _ index: Int) -> SQLFragment {
        .identifier(entity.persistentProperties[index].name)
    }
    /// The columns at `indexes`, comma-separated.
    private static func columns(_ entity: Schema.Entity, _ indexes: [Int]) -> SQLFragment {
        .joined(indexes.map { column(entity, $0) }, separator: ", ")
    }

    /// `column = placeholder, …` for `columns`, then the version moving on (every write of a row moves it).
    private static func assignments(_ entity: Schema.Entity, _ columns: [Int]) -> SQLFragment {
        .joined(
            columns.map { "\(column(entity, $0)) = \(.parameter)" } + ["\(version) = \(version) + 1"], separator: ", ")
    }
}
