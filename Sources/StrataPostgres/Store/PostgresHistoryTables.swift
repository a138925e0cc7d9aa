import Strata

/// The history tables of a PostgreSQL store: the same three tables and columns as on SQLite (`HistoryTables`),
/// in the store's schema, and the same rows: a change row stands for a run of changes of one kind, entity and
/// attribute list, its keys consecutive or listed in `keys`.
///
/// - Transaction identifiers come from `bigint GENERATED ALWAYS AS IDENTITY`: a sequence, so they only grow and
///   are never given twice, even after the newest history is deleted or a save rolls back.
/// - `timestamp` is `double precision` seconds since 2001, as dates are stored.
/// - A tombstone value sits in the one of four typed columns that matches its storage class (PostgreSQL has no
///   untyped column), so every stored value round-trips as written.
enum PostgresHistoryTables {
    static let createStatements = [
        "CREATE TABLE IF NOT EXISTS \(HistoryTables.transactions) (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
            + "\"timestamp\" double precision NOT NULL, author text, bundle text NOT NULL, process text NOT NULL)",
        "CREATE TABLE IF NOT EXISTS \(HistoryTables.changes) (\"transaction\" bigint NOT NULL, position bigint NOT NULL, "
            + "kind bigint NOT NULL, entity text NOT NULL, \"row\" bigint NOT NULL, count bigint NOT NULL DEFAULT 1, attributes text, "
            + "keys bytea, PRIMARY KEY (\"transaction\", position))",
        // Stores created before key lists (`HistoryKeyList`) gain the column; their rows, all consecutive, read as before.
        "ALTER TABLE \(HistoryTables.changes) ADD COLUMN IF NOT EXISTS keys bytea",
        "CREATE TABLE IF NOT EXISTS \(HistoryTables.tombstones) (\"transaction\" bigint NOT NULL, position bigint NOT NULL, "
            + "name text NOT NULL, integer_value bigint, real_value double precision, text_value text, blob_value bytea, "
            + "PRIMARY KEY (\"transaction\", position, name))",
        // Retention by age and fetches bounded by a date read the rows they select (layout version 3).
        "CREATE INDEX IF NOT EXISTS \(HistoryTables.timestampIndex) ON \(HistoryTables.transactions) (\"timestamp\")",
    ]

    /// The four typed columns holding a tombstone's value, in this order.
    static let tombstoneValueColumns = "integer_value, real_value, text_value, blob_value"

    /// A value spread over the four typed columns (`NULL` in all four for no value).
    static func tombstoneColumns(_ value: StoredValue) -> [StoredValue] {
        switch value {
        case .null: [.null, .null, .null, .null]
        case .integer: [value, .null, .null, .null]
        case .real: [.null, value, .null, .null]
        case .text: [.null, .null, value, .null]
        case .blob: [.null, .null, .null, value]
        }
    }
}
