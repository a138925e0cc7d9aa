/// The tables a store records its persistent history in, next to `strata_metadata` (SQLite's layout; PostgreSQL's
/// keeps the names and kinds):
///
/// - `strata_history_transactions`: one row per save (`id` is the transaction identifier and the token's value),
///   with the save's time (seconds since 2001, Foundation's reference date, so dates round-trip exactly), author,
///   program name and process identifier. An identifier is never given twice, even after the newest history is
///   deleted: a save takes one more than both the newest row's and `historyIssuedThrough` in `strata_metadata`,
///   which every deletion of history raises to the newest transaction it deleted. Up to layout version 3 the
///   column was `AUTOINCREMENT` (SQLite then writes its `sqlite_sequence` row at every save); opening such a store
///   to write rebuilds the table without it and carries the sequence into `historyIssuedThrough`.
///   On SQLite (layout version 5), a save whose history is a single change row keeps it in the transaction row's
///   own columns, `kind`, `entity`, `row`, `count`, `attributes` and `keys` (``inlineChangeColumns``), at position
///   0, rather than in `strata_history_changes`: a one-change save writes one history row and changes one page
///   fewer. Those columns are `NULL` in every other transaction row; PostgreSQL's table has none of them.
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
/// `strata_history_transactions` is indexed by `timestamp` (from layout version 3), so retention by age and fetches
/// bounded by a date cost the rows they read, not the table's size.
///
/// `strata_metadata` remembers, for each author whose transactions `deleteHistory` removed, the newest removed
/// (`historyDeletedThrough:<author>`, `historyDeletedThrough.noAuthor`), and under `historyDeletedThrough` the
/// transaction through which every author's history is gone (an erase; stores of earlier versions recorded every
/// deletion there). A token is reported as expired when a transaction after it that its reader would have returned
/// is gone, rather than silently skipping it (`HistoryDeletionMarks`).
package enum HistoryTables {
    package static let transactions = "strata_history_transactions"
    package static let changes = "strata_history_changes"
    package static let tombstones = "strata_history_tombstones"
    /// The index of the transactions by `timestamp` (layout version 3).
    package static let timestampIndex = "strata_history_transactions_timestamp"
    /// The metadata key holding the transaction through which the history of every author was deleted, and the
    /// prefix of the keys holding each author's newest deleted transaction.
    package static let deletedThroughKey = "historyDeletedThrough"
    /// The metadata key holding the newest transaction identifier given before the newest row now in the table
    /// (the newest deleted one): a save's transaction takes an identifier above it.
    package static let issuedThroughKey = "historyIssuedThrough"
    /// The version of these tables' layout, recorded in the stored schema description (`StoredSchema.history`).
    static let version = 5

    /// The columns of a change row after its transaction and position, in the order its `INSERT` binds them; on
    /// SQLite, the transaction row's columns holding a lone change (layout version 5).
    package static let inlineChangeColumns = ["kind", "entity", "row", "count", "attributes", "keys"]

    /// The kind of a recorded change, as stored in `strata_history_changes.kind`.
    package enum Kind: Int64 {
        case insert = 0
        case update = 1
        case delete = 2
    }
}
