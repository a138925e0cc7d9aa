/// The primary keys an SQLite store issues: each table's largest key ever issued is kept in
/// `strata_primary_keys` (Core Data's `Z_PRIMARYKEY.Z_MAX`), and every insert takes the next key above both that
/// mark and the table's largest stored key. A key is therefore never issued twice, even once its row is deleted
/// (SQLite alone would give the largest rowid again), a migration rebuilds the table (the mark is kept by the
/// table's name) or the store is erased (rows go, marks stay).
///
/// The mark is read once per table a save inserts into and written once before the save commits, so an insert
/// costs no statement of its own; the key is bound with the row where SQLite wouldn't choose it (`SQLiteKeyAllocator`).
enum SQLitePrimaryKeys {
    /// The table's `CREATE` statement (run only where it doesn't exist).
    static let createStatement: SQLFragment =
        "CREATE TABLE IF NOT EXISTS \(identifier: StoreLayout.primaryKeysTable) "
        + "(\(identifier: "name") TEXT PRIMARY KEY NOT NULL, \(identifier: "max") INTEGER NOT NULL) WITHOUT ROWID"

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
    /// created it first wins, and this one finds it), marking each entity table with its largest stored key or the
    /// largest key its persistent history names, whichever is larger: keys deleted before the upgrade, above today's
    /// largest row, stay issued. Keys whose history was deleted before the upgrade can't be known.
    ///
    /// - Throws: `SQLiteError` when the table can't be written.
    static func createForExistingStore(on connection: SQLiteConnection, schema: Schema) throws {
        guard !exist(on: connection) else { return }
        try connection.transaction {
            guard !exist(on: connection) else { return }
            try connection.execute(createStatement.inlined(in: SQLiteDialect()))
            let tables = try connection.query(
                "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM "
                    + "pragma_table_info(m.name) WHERE name = \(bind: .text(StoreLayout.primaryKeyColumn)))")
            for row in tables {
                if case .text(let table)? = row.first { try connection.run(recordLargestStoredKey(table: table)) }
            }
            guard HistoryTables.exist(on: connection) else { return }
            for (table, key) in try largestHistoryKeys(on: connection, schema: schema) {
                try connection.run(record(table: table, max: key))
            }
        }
    }

    /// The largest key the history names for each table (an entity's rows are in its hierarchy's table).
    private static func largestHistoryKeys(on connection: SQLiteConnection, schema: Schema) throws -> [String: Int64] {
        let later = HistoryTables.laterColumns(on: connection)
        let columns: SQLFragment =
            "\(identifier: "entity"), \(identifier: "row"), \(identifier: "count")"
            + (later.keyLists ? ", \(identifier: "keys")" : "")
        var query: SQLFragment = "SELECT \(columns) FROM \(identifier: HistoryTables.changes)"
        if later.inlineChanges {
            query.append(
                " UNION ALL SELECT \(columns) FROM \(identifier: HistoryTables.transactions) "
                    + "WHERE \(identifier: "kind") IS NOT NULL")
        }
        let rows = try connection.query(query)
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
    /// table).
    static func carry(from source: String, to table: String) -> SQLFragment {
        "INSERT INTO \(identifier: StoreLayout.primaryKeysTable) (\(identifier: "name"), \(identifier: "max")) "
            + "SELECT \(bind: .text(table)), \(identifier: "max") FROM \(identifier: StoreLayout.primaryKeysTable) "
            + "WHERE \(identifier: "name") = \(bind: .text(source)) "
            + "ON CONFLICT (\(identifier: "name")) DO UPDATE SET \(identifier: "max") = max(\(identifier: "max"), "
            + "excluded.\(identifier: "max"))"
    }

    /// Marks `table` with its largest stored key, unless its mark is larger.
    static func recordLargestStoredKey(table: String) -> SQLFragment {
        "INSERT INTO \(identifier: StoreLayout.primaryKeysTable) (\(identifier: "name"), \(identifier: "max")) "
            + "SELECT \(bind: .text(table)), coalesce(max(\(identifier: StoreLayout.primaryKeyColumn)), 0) "
            + "FROM \(identifier: table) WHERE true ON CONFLICT (\(identifier: "name")) "
            + "DO UPDATE SET \(identifier: "max") = max(\(identifier: "max"), excluded.\(identifier: "max"))"
    }

    /// The query of `table`'s mark and its largest stored key (0 for none).
    static func largestKeys(table: String) -> SQLFragment {
        "SELECT coalesce((SELECT \(identifier: "max") FROM \(identifier: StoreLayout.primaryKeysTable) "
            + "WHERE \(identifier: "name") = \(bind: .text(table))), 0), "
            + "coalesce((SELECT max(\(identifier: StoreLayout.primaryKeyColumn)) FROM \(identifier: table)), 0)"
    }
}

/// The keys one save issues, table by table. The first insert into a table reads its mark and its largest stored
/// key (``SQLitePrimaryKeys/largestKeys(table:)``). When the mark is larger (the newest rows were deleted), that
/// insert binds the key after the mark; otherwise, and for every later insert of the save, it binds NULL and SQLite
/// gives the row its largest key + 1, which is then the next key above the mark too: only the first row after a
/// delete of the newest pays for an explicit key's lookup. ``record()`` writes the new marks before the commit.
final class SQLiteKeyAllocator {
    private let connection: SQLiteConnection
    /// The tables this save inserted into, by their root entity.
    private var started: [ObjectIdentifier: String] = [:]
    /// The key the next row of a table must be given explicitly (its mark is above its largest row), by root entity.
    private var pending: [ObjectIdentifier: Int64] = [:]
    /// The entity of the last insert whose table continues on SQLite's own keys (no lookup for a run of its rows).
    private var continuing: ObjectIdentifier?

    init(connection: SQLiteConnection) {
        self.connection = connection
    }

    /// The key to bind for the next row inserted into `entity`'s table; `nil`: bind NULL, SQLite's next rowid is it.
    ///
    /// - Throws: `SQLiteError` when the table's mark can't be read.
    func key(for entity: Schema.Entity) throws(SQLiteError) -> Int64? {
        if ObjectIdentifier(entity) == continuing { return nil }
        let root = ObjectIdentifier(entity.rootEntity)
        if let key = pending[root] { return key }
        if started[root] == nil {
            let table = entity.tableName
            started[root] = table
            let row = try connection.query(SQLitePrimaryKeys.largestKeys(table: table)).first ?? []
            let value = { (index: Int) -> Int64 in
                if index < row.count, case .integer(let value) = row[index] { return value }
                return 0
            }
            let (mark, stored) = (value(0), value(1))
            if mark > stored {
                pending[root] = mark + 1
                return mark + 1
            }
        }
        continuing = ObjectIdentifier(entity)
        return nil
    }

    /// Notes that a row was inserted into `entity`'s table with the key ``key(for:)`` gave: the rows after it continue
    /// on SQLite's keys.
    func inserted(into entity: Schema.Entity) {
        guard !pending.isEmpty else { return }
        pending[ObjectIdentifier(entity.rootEntity)] = nil
    }

    /// Marks each table this save inserted into with its largest key.
    ///
    /// - Throws: `SQLiteError` when a mark can't be written.
    func record() throws(SQLiteError) {
        for table in started.values {
            try connection.run(SQLitePrimaryKeys.recordLargestStoredKey(table: table))
        }
    }
}
