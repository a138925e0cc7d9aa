/// The SQL of a save's statements in one dialect, written once per shape and kept for the save: every store runs
/// the same statements, spelled with its own quotes and placeholders.
final class SaveStatements<Dialect: SQLDialect> {
    let dialect: Dialect
    /// Appended to a `SELECT` of rows the save is about to write (`SaveExecutor.rowLock`).
    let rowLock: String
    let returnsInsertedKeys: Bool
    private var cache: [Key: SaveSQL] = [:]

    init(dialect: Dialect, rowLock: String, returnsInsertedKeys: Bool) {
        self.dialect = dialect
        self.rowLock = rowLock
        self.returnsInsertedKeys = returnsInsertedKeys
    }

    /// A statement's shape: what it does, to which table, with which columns.
    private struct Key: Hashable {
        let kind: Kind
        let entity: ObjectIdentifier
        var columns: [Int] = []
        var name: String = ""
    }

    private enum Kind: Hashable {
        case insert(ignoringConflicts: Bool)
        case checkedUpdate
        case update(returningVersion: Bool)
        case delete(checked: Bool, returning: Bool)
        case storedRow
        case uniqueRow(nulls: [Bool])
        case foreignKey
        case joinInsert
        case joinDelete
    }

    private func sql(_ key: Key, _ entity: Schema.Entity, returnsRows: Bool, _ text: () -> String) -> SaveSQL {
        if let sql = cache[key] { return sql }
        let sql = SaveSQL(text(), entity: entity, returnsRows: returnsRows)
        cache[key] = sql
        return sql
    }

    /// `INSERT` of the entity's columns (`ON CONFLICT DO NOTHING` for an upsert, whose conflict is looked up again).
    func insert(_ entity: Schema.Entity, ignoringConflicts: Bool) -> SaveSQL {
        sql(
            Key(kind: .insert(ignoringConflicts: ignoringConflicts), entity: ObjectIdentifier(entity)), entity,
            returnsRows: returnsInsertedKeys
        ) {
            let columns = entity.columnPropertyIndexes
            var names = columns.map { column(entity, $0) }
            var values = columns.indices.map { dialect.placeholder(at: $0 + 1) }
            if entity.tableHasEntityColumn {
                // Written in the text: the entity's name, constant for the statement, binds nothing.
                names.append(dialect.quote(identifier: StoreLayout.entityColumn))
                values.append("'\(entity.name)'")
            }
            let body =
                names.isEmpty
                ? "DEFAULT VALUES" : "(\(names.joined(separator: ", "))) VALUES (\(values.joined(separator: ", ")))"
            return "INSERT INTO \(table(entity)) \(body)\(ignoringConflicts ? " ON CONFLICT DO NOTHING" : "")"
                + (returnsInsertedKeys ? " RETURNING \(primaryKey)" : "")
        }
    }

    /// `UPDATE` of `columns` and the version, applied only while the row has the version bound last.
    func checkedUpdate(_ entity: Schema.Entity, columns: [Int]) -> SaveSQL {
        sql(Key(kind: .checkedUpdate, entity: ObjectIdentifier(entity), columns: columns), entity, returnsRows: false) {
            "UPDATE \(table(entity)) SET \(assignments(entity, columns)) WHERE \(primaryKey) = \(dialect.placeholder(at: columns.count + 1)) "
                + "AND \(version) = \(dialect.placeholder(at: columns.count + 2))"
        }
    }

    /// `UPDATE` of `columns` and the version whatever the row's version (a conflict resolved, an upsert).
    func update(_ entity: Schema.Entity, columns: [Int], returningVersion: Bool) -> SaveSQL {
        sql(
            Key(kind: .update(returningVersion: returningVersion), entity: ObjectIdentifier(entity), columns: columns),
            entity,
            returnsRows: returningVersion
        ) {
            "UPDATE \(table(entity)) SET \(assignments(entity, columns)) WHERE \(primaryKey) = \(dialect.placeholder(at: columns.count + 1))"
                + (returningVersion ? " RETURNING \(version)" : "")
        }
    }

    /// `DELETE` of one row by key (and, `checked`, version), returning the entity's preserved values when asked.
    func delete(_ entity: Schema.Entity, checked: Bool, returningPreserved: Bool) -> SaveSQL {
        let returning = returningPreserved && !entity.preservedPropertyIndexes.isEmpty
        return sql(
            Key(kind: .delete(checked: checked, returning: returning), entity: ObjectIdentifier(entity)), entity,
            returnsRows: returning
        ) {
            "DELETE FROM \(table(entity)) WHERE \(primaryKey) = \(dialect.placeholder(at: 1))"
                + (checked ? " AND \(version) = \(dialect.placeholder(at: 2))" : "")
                + (returning ? " RETURNING \(columns(entity, entity.preservedPropertyIndexes))" : "")
        }
    }

    /// `SELECT` of a row's version and columns by key, locked.
    func storedRow(_ entity: Schema.Entity) -> SaveSQL {
        sql(Key(kind: .storedRow, entity: ObjectIdentifier(entity)), entity, returnsRows: true) {
            "SELECT \(([version] + entity.columnPropertyIndexes.map { column(entity, $0) }).joined(separator: ", ")) FROM \(table(entity)) "
                + "WHERE \(primaryKey) = \(dialect.placeholder(at: 1))\(rowLock)"
        }
    }

    /// `SELECT` of the key of the row holding the bound values of `properties` (a uniqueness constraint), the
    /// properties whose value is NULL (`nulls`) matched with `IS NULL`, as the constraint treats them.
    func uniqueRow(_ entity: Schema.Entity, properties: [Int], nulls: [Bool]) -> SaveSQL {
        sql(
            Key(kind: .uniqueRow(nulls: nulls), entity: ObjectIdentifier(entity), columns: properties), entity,
            returnsRows: true
        ) {
            var bound = 0
            let condition = zip(properties, nulls).map { property, isNull -> String in
                if isNull { return "\(column(entity, property)) IS NULL" }
                bound += 1
                return "\(column(entity, property)) = \(dialect.placeholder(at: bound))"
            }.joined(separator: " AND ")
            return "SELECT \(primaryKey) FROM \(table(entity)) WHERE \(condition) LIMIT 1\(rowLock)"
        }
    }

    /// `UPDATE` of one foreign-key column by key.
    func foreignKey(_ entity: Schema.Entity, column name: String) -> SaveSQL {
        sql(Key(kind: .foreignKey, entity: ObjectIdentifier(entity), name: name), entity, returnsRows: false) {
            "UPDATE \(table(entity)) SET \(dialect.quote(identifier: name)) = \(dialect.placeholder(at: 1)) "
                + "WHERE \(primaryKey) = \(dialect.placeholder(at: 2))"
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
            let (table, owner, target) = (
                dialect.quote(identifier: change.table), dialect.quote(identifier: change.ownerColumn),
                dialect.quote(identifier: change.targetColumn)
            )
            return inserting
                ? "INSERT INTO \(table) (\(owner), \(target)) VALUES (\(dialect.placeholder(at: 1)), \(dialect.placeholder(at: 2))) ON CONFLICT DO NOTHING"
                : "DELETE FROM \(table) WHERE \(owner) = \(dialect.placeholder(at: 1)) AND \(target) = \(dialect.placeholder(at: 2))"
        }
    }

    var primaryKey: String { dialect.quote(identifier: StoreLayout.primaryKeyColumn) }
    var version: String { dialect.quote(identifier: StoreLayout.versionColumn) }
    func table(_ entity: Schema.Entity) -> String { dialect.quote(identifier: entity.tableName) }
    func column(_ entity: Schema.Entity, _ index: Int) -> String {
        dialect.quote(identifier: entity.persistentProperties[index].name)
    }
    /// The columns at `indexes`, comma-separated.
    func columns(_ entity: Schema.Entity, _ indexes: [Int]) -> String {
        indexes.map { column(entity, $0) }.joined(separator: ", ")
    }

    /// `column = placeholder, …` for `columns`, then the version moving on (every write of a row moves it).
    private func assignments(_ entity: Schema.Entity, _ columns: [Int]) -> String {
        (columns.enumerated().map { "\(column(entity, $1)) = \(dialect.placeholder(at: $0 + 1))" } + [
            "\(version) = \(version) + 1"
        ])
        .joined(separator: ", ")
    }
}
