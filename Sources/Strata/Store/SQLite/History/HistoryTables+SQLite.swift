/// The history tables' SQLite statements and checks.
extension HistoryTables {
    /// Creates the tables where they don't exist: run in a new store's creating transaction, and by the migration
    /// that adds history to a store written before it was recorded.
    static func createStatements(dialect: SQLiteDialect) -> [String] {
        let quote = dialect.quote(identifier:)
        return [
            "CREATE TABLE IF NOT EXISTS \(quote(transactions)) (\(quote("id")) INTEGER PRIMARY KEY AUTOINCREMENT, "
                + "\(quote("timestamp")) REAL NOT NULL, \(quote("author")) TEXT, \(quote("bundle")) TEXT NOT NULL, "
                + "\(quote("process")) TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(quote(changes)) (\(quote("transaction")) INTEGER NOT NULL, "
                + "\(quote("position")) INTEGER NOT NULL, \(quote("kind")) INTEGER NOT NULL, \(quote("entity")) TEXT NOT NULL, "
                + "\(quote("row")) INTEGER NOT NULL, \(quote("count")) INTEGER NOT NULL DEFAULT 1, \(quote("attributes")) TEXT, "
                + "\(quote("keys")) BLOB, PRIMARY KEY (\(quote("transaction")), \(quote("position")))) WITHOUT ROWID",
            "CREATE TABLE IF NOT EXISTS \(quote(tombstones)) (\(quote("transaction")) INTEGER NOT NULL, "
                + "\(quote("position")) INTEGER NOT NULL, \(quote("name")) TEXT NOT NULL, \(quote("value")), "
                + "PRIMARY KEY (\(quote("transaction")), \(quote("position")), \(quote("name")))) WITHOUT ROWID",
            timestampIndexStatement(dialect: dialect),
        ]
    }

    /// Upgrades tables of an earlier layout `version` to this one: version 1 gains the `keys` column, versions 1 and
    /// 2 the index on the transactions' time.
    static func upgradeStatements(from version: Int, dialect: SQLiteDialect) -> [String] {
        var statements: [String] = []
        if version < 2 {
            statements.append(
                "ALTER TABLE \(dialect.quote(identifier: changes)) ADD COLUMN \(dialect.quote(identifier: "keys")) BLOB"
            )
        }
        if version < 3 { statements.append(timestampIndexStatement(dialect: dialect)) }
        return statements
    }

    /// The index on the transactions' time: retention by age and history fetches bounded by a date read the rows
    /// they select, not the whole table.
    private static func timestampIndexStatement(dialect: SQLiteDialect) -> String {
        "CREATE INDEX IF NOT EXISTS \(dialect.quote(identifier: timestampIndex)) ON \(dialect.quote(identifier: transactions)) "
            + "(\(dialect.quote(identifier: "timestamp")))"
    }

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
