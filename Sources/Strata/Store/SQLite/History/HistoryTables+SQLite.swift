/// The history tables' SQLite statements and checks.
extension HistoryTables {
    /// Creates the tables where they don't exist: run in a new store's creating transaction, and by the migration
    /// that adds history to a store written before it was recorded.
    static let createStatements: [SQLFragment] = [
        createTransactionsTable(named: transactions),
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

    /// The transactions table, without `AUTOINCREMENT` (layout version 4): a save gives its transaction the
    /// identifier ``transactionInsert`` computes. Its last six columns hold a save's lone change (layout version 5).
    private static func createTransactionsTable(named name: String) -> SQLFragment {
        "CREATE TABLE IF NOT EXISTS \(identifier: name) (\(identifier: "id") INTEGER PRIMARY KEY, "
            + "\(identifier: "timestamp") REAL NOT NULL, \(identifier: "author") TEXT, \(identifier: "bundle") TEXT NOT NULL, "
            + "\(identifier: "process") TEXT NOT NULL, "
            + "\(SQLFragment.joined(inlineChangeColumnDefinitions, separator: ", ")))"
    }

    /// The definitions of ``inlineChangeColumns``: the changes table's types, every column nullable.
    private static let inlineChangeColumnDefinitions: [SQLFragment] = zip(
        inlineChangeColumns, ["INTEGER", "TEXT", "INTEGER", "INTEGER", "TEXT", "BLOB"]
    ).map { name, type in "\(identifier: name) \(sql: type)" }

    /// The `INSERT` of a save's transaction row, a flag and then its time, author, program and process bound
    /// (``transactionValues(author:)``), then its lone change's columns (``inlineChangeColumns``, `NULL` when the
    /// save has none or several): its identifier is one more than both the newest row's and the newest
    /// deleted one's (``issuedThroughKey``), so no identifier is given twice, even after every row was deleted.
    /// Unlike `AUTOINCREMENT`, which writes its `sqlite_sequence` row at every save, this only reads: a save
    /// changes one page fewer.
    ///
    /// With the flag set — the save follows this connection's last save with nothing committed in between
    /// (``SQLiteConnection/nothingCommittedSinceOwnSave``), so that save's row is still the newest, above every
    /// identifier given before it — the key is `NULL`, which SQLite replaces with one more than the newest row's:
    /// the same identifier, without the two lookups (about 6,000 instructions of 12,600). One statement for both,
    /// so a connection compiles one.
    static let transactionInsert: SQLFragment =
        "INSERT INTO \(identifier: transactions) (\(identifier: "id"), "
        + "\(columns(transactionColumns + inlineChangeColumns))) VALUES ("
        + "CASE WHEN ? THEN NULL ELSE "
        + "max(coalesce((SELECT max(\(identifier: "id")) FROM \(identifier: transactions)), 0), "
        + "coalesce((SELECT CAST(value AS INTEGER) FROM \(identifier: StoreLayout.metadataTable) "
        + "WHERE key = '\(sql: issuedThroughKey)'), 0)) + 1 END, "
        + "\(SQLFragment.parameters(transactionColumns.count + inlineChangeColumns.count)))"

    /// Upgrades tables of an earlier layout `version` to this one: version 1 gains the `keys` column, versions 1 and
    /// 2 the index on the transactions' time, versions 1 to 3 a transactions table without `AUTOINCREMENT` (SQLite's
    /// way: a new table filled from the old one, which it replaces), its sequence kept as ``issuedThroughKey``, and
    /// with the columns of a lone change, which version 4's table gains.
    static func upgradeStatements(from version: Int) -> [SQLFragment] {
        var statements: [SQLFragment] = []
        if version < 2 { statements.append("ALTER TABLE \(identifier: changes) ADD COLUMN \(identifier: "keys") BLOB") }
        if version < 4 {
            let rebuilt = transactions + "_rebuilt"
            let columns = SQLFragment.joined(
                (["id"] + transactionColumns).map(SQLFragment.identifier), separator: ", ")
            // A table made `AUTOINCREMENT` gives SQLite its `sqlite_sequence`; one made and dropped at once makes
            // sure it exists before it is read, should the store's own sequence table be gone.
            let probe = transactions + "_sequence"
            statements += [
                "CREATE TABLE \(identifier: probe) (\(identifier: "id") INTEGER PRIMARY KEY AUTOINCREMENT)",
                "DROP TABLE \(identifier: probe)",
                "INSERT INTO \(identifier: StoreLayout.metadataTable) (key, value) SELECT \(bind: .text(issuedThroughKey)), "
                    + "CAST(seq AS TEXT) FROM sqlite_sequence WHERE name = \(bind: .text(transactions)) "
                    + "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                createTransactionsTable(named: rebuilt),
                "INSERT INTO \(identifier: rebuilt) (\(columns)) SELECT \(columns) FROM \(identifier: transactions)",
                "DROP TABLE \(identifier: transactions)",
                "ALTER TABLE \(identifier: rebuilt) RENAME TO \(identifier: transactions)",
            ]
        }
        if version < 4 { statements.append(timestampIndexStatement) }
        // Versions 1 to 3 rebuilt the table above with the columns already.
        if version == 4 {
            statements += inlineChangeColumnDefinitions.map {
                "ALTER TABLE \(identifier: transactions) ADD COLUMN \($0)"
            }
        }
        return statements
    }

    /// The index on the transactions' time: retention by age and history fetches bounded by a date read the rows
    /// they select, not the whole table.
    private static let timestampIndexStatement: SQLFragment =
        "CREATE INDEX IF NOT EXISTS \(identifier: timestampIndex) ON \(identifier: transactions) (\(identifier: "timestamp"))"

    /// Which columns of later layouts the history tables have: the changes table's `keys` (version 2) and the
    /// transactions table's lone change (``inlineChangeColumns``, version 5). A store of an earlier layout opened
    /// read-only lacks them, and holds nothing they would.
    static func laterColumns(on connection: SQLiteConnection) -> (keyLists: Bool, inlineChanges: Bool) {
        let rows = try? connection.query(
            "SELECT (SELECT count(*) FROM pragma_table_info(\(bind: .text(changes))) WHERE name = 'keys'), "
                + "(SELECT count(*) FROM pragma_table_info(\(bind: .text(transactions))) WHERE name = 'kind')")
        guard let row = rows?.first, row.count == 2, case .integer(let keys) = row[0], case .integer(let kinds) = row[1]
        else { return (false, false) }
        return (keys > 0, kinds > 0)
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
