/// The primary keys an SQLite store issues: each table's largest key ever issued is kept in
/// `strata_primary_keys` (Core Data's `Z_PRIMARYKEY.Z_MAX`), and every insert takes the next key above both that
/// mark and the table's largest stored key. A key is therefore never issued twice, even once its row is deleted
/// (SQLite alone would give the largest rowid again), a migration rebuilds the table (the mark is kept by the
/// table's name) or the store is erased (rows go, marks stay).
///
/// The mark is read once per table a save inserts into and written once before the save commits, so an insert
/// costs no statement of its own; the key is bound with the row (`SQLiteSaveExecutor`).
enum SQLitePrimaryKeys {
    /// The table's `CREATE` statement (run only where it doesn't exist).
    static func createStatement(dialect: SQLiteDialect) -> String {
        "CREATE TABLE IF NOT EXISTS \(dialect.quote(identifier: StoreLayout.primaryKeysTable)) "
            + "(\"name\" TEXT PRIMARY KEY NOT NULL, \"max\" INTEGER NOT NULL) WITHOUT ROWID"
    }

    /// Whether the connection's database has the table (a store written before it existed has not, until its
    /// first writable open).
    static func exist(on connection: SQLiteConnection) -> Bool {
        let rows = try? connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(bind: .text(StoreLayout.primaryKeysTable))"
        )
        if case .integer(let count)? = rows?.first?.first { return count > 0 }
        return false
    }

    /// Creates the table in a store written before it existed, in one write transaction (a concurrent opener that
    /// created it first wins, and this one finds it), marking each table with the largest key its persistent
    /// history names: keys deleted before the upgrade, above today's largest row, stay issued. History deleted
    /// before the upgrade can't be known; the stored rows' keys always are (every insert starts above them).
    ///
    /// - Throws: `SQLiteError` when the table can't be written.
    static func createForExistingStore(on connection: SQLiteConnection, schema: Schema) throws {
        guard !exist(on: connection) else { return }
        try connection.transaction {
            guard !exist(on: connection) else { return }
            try connection.execute(createStatement(dialect: SQLiteDialect()))
            guard HistoryTables.exist(on: connection) else { return }
            for (table, key) in try largestHistoryKeys(on: connection, schema: schema) {
                try connection.run(record(table: table, max: key))
            }
        }
    }

    /// The largest key the history names for each table (an entity's rows are in its hierarchy's table).
    private static func largestHistoryKeys(on connection: SQLiteConnection, schema: Schema) throws -> [String: Int64] {
        let hasKeyLists = HistoryTables.hasKeyLists(on: connection)
        let rows = try connection.query(
            "SELECT \(identifier: "entity"), \(identifier: "row"), \(identifier: "count")"
                + (hasKeyLists ? ", \(identifier: "keys")" : "") + " FROM \(identifier: HistoryTables.changes)")
        var largest: [String: Int64] = [:]
        for row in rows {
            guard row.count >= 3, case .text(let entity) = row[0], case .integer(let first) = row[1],
                case .integer(let count) = row[2]
            else { continue }
            var list: [UInt8]?
            if row.count > 3, case .blob(let bytes) = row[3] { list = bytes }
            let key = HistoryKeyList.keys(first: first, count: count, list: list).max() ?? first
            let table = schema.entity(named: entity)?.tableName ?? entity
            largest[table] = max(largest[table] ?? 0, key)
        }
        return largest
    }

    /// Records `max` as the largest key `table` issued, unless a larger one is recorded.
    static func record(table: String, max: Int64) -> SQLFragment {
        "INSERT INTO \(identifier: StoreLayout.primaryKeysTable) (\(identifier: "name"), \(identifier: "max")) "
            + "VALUES (\(bind: .text(table)), \(bind: .integer(max))) ON CONFLICT (\(identifier: "name")) "
            + "DO UPDATE SET \(identifier: "max") = max(\(identifier: "max"), excluded.\(identifier: "max"))"
    }

    /// Marks `table` with `source`'s mark, unless its own is larger (a model's rows moved into a hierarchy's
    /// table). A migration's DDL takes no bindings, so the names are literals.
    static func carry(from source: String, to table: String) -> String {
        let quote = SQLiteDialect().quote(identifier:)
        return "INSERT INTO \(quote(StoreLayout.primaryKeysTable)) (\"name\", \"max\") SELECT "
            + "\(StoredValue.text(table).sqlLiteral), \"max\" FROM \(quote(StoreLayout.primaryKeysTable)) "
            + "WHERE \"name\" = \(StoredValue.text(source).sqlLiteral) "
            + "ON CONFLICT (\"name\") DO UPDATE SET \"max\" = max(\"max\", excluded.\"max\")"
    }

    /// The query of the largest key `table` issued or holds: the recorded mark and the stored rows' largest key
    /// (rows another writer inserted without marking them).
    static func largestKey(table: String) -> SQLFragment {
        "SELECT max(coalesce((SELECT \(identifier: "max") FROM \(identifier: StoreLayout.primaryKeysTable) "
            + "WHERE \(identifier: "name") = \(bind: .text(table))), 0), "
            + "coalesce((SELECT max(\(identifier: StoreLayout.primaryKeyColumn)) FROM \(identifier: table)), 0))"
    }
}

/// The keys one save issues, table by table: the first insert into a table reads its largest key
/// (``SQLitePrimaryKeys/largestKey(table:)``), each insert takes the next, and ``record()`` writes the new marks
/// before the save commits.
final class SQLiteKeyAllocator {
    private let connection: SQLiteConnection
    /// The last key issued in this save, by the table's root entity.
    private var issued: [ObjectIdentifier: (table: String, key: Int64)] = [:]

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// The key of the next row inserted into `entity`'s table.
    ///
    /// - Throws: `SQLiteError` when the mark can't be read.
    func next(for entity: Schema.Entity) throws(SQLiteError) -> Int64 {
        let root = ObjectIdentifier(entity.rootEntity)
        if let last = issued[root] {
            let key = last.key + 1
            issued[root] = (last.table, key)
            return key
        }
        let table = entity.tableName
        var largest: Int64 = 0
        if case .integer(let value)? = try connection.query(SQLitePrimaryKeys.largestKey(table: table)).first?.first {
            largest = value
        }
        issued[root] = (table, largest + 1)
        return largest + 1
    }

    /// Records the largest key issued in each table this save inserted into.
    ///
    /// - Throws: `SQLiteError` when a mark can't be written.
    func record() throws(SQLiteError) {
        for (table, key) in issued.values {
            try connection.run(SQLitePrimaryKeys.record(table: table, max: key))
        }
    }
}
