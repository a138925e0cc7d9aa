/// The tables an SQLite store records its persistent history in, next to `strata_metadata`:
///
/// - `strata_history_transactions`: one row per save (`id` is the transaction identifier and the token's value,
///   `AUTOINCREMENT` so an identifier is never given twice, even after the newest history is deleted), with the
///   save's time (seconds since 2001, Foundation's reference date, so dates round-trip exactly), author, program name
///   and process identifier.
/// - `strata_history_changes`: one row per inserted, updated or deleted model of a transaction, keyed by
///   (transaction, position) without a rowid, so a transaction's changes sit together and are read by one range
///   scan. `attributes` lists an update's changed properties by name (names survive migrations; indexes don't).
///   A row stands for `count` changes of the same kind, entity and attributes at consecutive positions: to
///   consecutive primary keys (`row`, `row + 1`, …) when `keys` is `NULL`, otherwise to `row` and the keys
///   `keys` lists (`HistoryKeyList`). A save of many new rows, or of scattered updates of one attribute set,
///   records a handful of rows, not one each. Layout version 1 had no `keys` column; opening such a store to
///   write adds it (its rows, all `NULL` there, read as before).
/// - `strata_history_tombstones`: the values of `.preserveValueOnDeletion` attributes of deleted models, one row
///   per value in a column without a declared type, so every storage class round-trips as written.
///
/// `strata_metadata`'s `historyDeletedThrough` key remembers the newest transaction `deleteHistory` removed, so a
/// token older than it is reported as expired rather than silently skipping what was deleted.
package enum HistoryTables {
    package static let transactions = "strata_history_transactions"
    package static let changes = "strata_history_changes"
    package static let tombstones = "strata_history_tombstones"
    /// The metadata key holding the newest transaction identifier removed by `deleteHistory`.
    package static let deletedThroughKey = "historyDeletedThrough"
    /// The version of these tables' layout, recorded in the stored schema description (`StoredSchema.history`).
    static let version = 2

    /// The kind of a recorded change, as stored in `strata_history_changes.kind`.
    package enum Kind: Int64 {
        case insert = 0
        case update = 1
        case delete = 2
    }

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
        ]
    }

    /// Upgrades tables of an earlier layout `version` to this one: version 1 gains the `keys` column.
    static func upgradeStatements(from version: Int, dialect: SQLiteDialect) -> [String] {
        guard version < 2 else { return [] }
        return ["ALTER TABLE \(dialect.quote(identifier: changes)) ADD COLUMN \(dialect.quote(identifier: "keys")) BLOB"]
    }

    /// Whether the changes table has the `keys` column (a store of layout version 1 opened read-only has not).
    static func hasKeyLists(on connection: SQLiteConnection) -> Bool {
        let rows = try? connection.query("SELECT count(*) FROM pragma_table_info(?) WHERE name = 'keys'", [.text(changes)])
        if case .integer(let count)? = rows?.first?.first { return count > 0 }
        return false
    }

    /// Whether the connection's database has the history tables (a store opened read-only before a writer added
    /// them has none).
    static func exist(on connection: SQLiteConnection) -> Bool {
        let rows = try? connection.query("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(transactions)])
        if case .integer(let count)? = rows?.first?.first { return count > 0 }
        return false
    }
}
