/// The history tables' SQLite statements and checks.
extension HistoryTables {
    /// Creates the tables where they don't exist: run in a new store's creating transaction, and by the migration
    /// that adds history to a store written before it was recorded.
    static let createStatements: [SQLFragment] = [
        "CREATE TABLE IF NOT EXISTS \(identifier: transactions) (\(identifier: "id") INTEGER PRIMARY KEY AUTOINCREMENT, "
            + "\(identifier: "timestamp") REAL NOT NULL, \(identifier: "author") TEXT, \(identifier: "bundle") TEXT NOT NULL, "
            + "\(identifier: "process") TEXT NOT NULL)",
        "CREATE TABLE IF NOT EXISTS \(identifier: changes) (\(identifier: "transaction") INTEGER NOT NULL, "
            + "\(identifier: "position") INTEGER NOT NULL, \(identifier: "kind") INTEGER NOT NULL, "
            + "\(identifier: "entity") TEXT NOT NULL, \(identifier: "row") INTEGER NOT NULL, "
            + "\(identifier: "count") INTEGER NOT NULL DEFAULT 1, \(identifier: "attributes") TEXT, "
            + "\(identifier: "keys") BLOB, PRIMARY KEY (\(identifier: "transaction"), \(identifier: "position"))) WITHOUT ROWID",
        "CREATE TABLE IF NOT EXISTS \(identifier: tombstones) (\(identifier: "transaction") INTEGER NOT NULL, "
            + "\(identifier: "position") INTEGER NOT NULL, \(identifier: "name") TEXT NOT NULL, \(identifier: "value"), "
            + "PRIMARY KEY (\(identifier: "transaction"), \(identifier: "position"), \(identifier: "name"))) WITHOUT ROWID",
        timestampIndexStatement,
    ]

    /// Upgrades tables of an earlier layout `version` to this one: version 1 gains the `keys` column, versions 1 and
    /// 2 the index on the transactions' time.
    static func upgradeStatements(from version: Int) -> [SQLFragment] {
        var statements: [SQLFragment] = []
        if version < 2 { statements.append("ALTER TABLE \(identifier: changes) ADD COLUMN \(identifier: "keys") BLOB") }
        if version < 3 { statements.append(timestampIndexStatement) }
        return statements
    }

    /// The index on the transactions' time: retention by age and history fetches bounded by a date read the rows
    /// they select, not the whole table.
    private static let timestampIndexStatement: SQLFragment =
        "CREATE INDEX IF NOT EXISTS \(identifier: timestampIndex) ON \(identifier: transactions) (\(identifier: "timestamp"))"

    /// Whether the changes table has the `keys` column (a store of layout version 1 opened read-only has not).
    static func hasKeyLists(on connection: SQLiteConnection) -> Bool {
        let rows = try? connection.query(
            "SELECT count(*) FROM pragma_table_info(\(bind: .text(changes))) WHERE name = 'keys'")
        if case .integer(let count)? = rows?.first?.first { return count > 0 }
        return false
    }

    /// Whether the connection's database has the history tables (a store opened read-only before a writer added
    /// them has none).
    static func exist(on connection: SQLiteConnection) -> Bool {
        let rows = try? connection.query(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = \(bind: .text(transactions))")
        if case .integer(let count)? = rows?.first?.first { return count > 0 }
        return false
    }
}
