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
    static let createStatements: [SQLFragment] = [
        "CREATE TABLE IF NOT EXISTS \(identifier: HistoryTables.transactions) (\(identifier: "id") bigint GENERATED "
            + "ALWAYS AS IDENTITY PRIMARY KEY, \(identifier: "timestamp") double precision NOT NULL, "
            + "\(identifier: "author") text, \(identifier: "bundle") text NOT NULL, \(identifier: "process") text NOT NULL)",
        "CREATE TABLE IF NOT EXISTS \(identifier: HistoryTables.changes) (\(identifier: "transaction") bigint NOT NULL, "
            + "\(identifier: "position") bigint NOT NULL, \(identifier: "kind") bigint NOT NULL, "
            + "\(identifier: "entity") text NOT NULL, \(identifier: "row") bigint NOT NULL, "
            + "\(identifier: "count") bigint NOT NULL DEFAULT 1, \(identifier: "attributes") text, "
            + "\(identifier: "keys") bytea, PRIMARY KEY (\(identifier: "transaction"), \(identifier: "position")))",
        // Stores created before key lists (`HistoryKeyList`) gain the column; their rows, all consecutive, read as before.
        "ALTER TABLE \(identifier: HistoryTables.changes) ADD COLUMN IF NOT EXISTS \(identifier: "keys") bytea",
        "CREATE TABLE IF NOT EXISTS \(identifier: HistoryTables.tombstones) (\(identifier: "transaction") bigint NOT NULL, "
            + "\(identifier: "position") bigint NOT NULL, \(identifier: "name") text NOT NULL, "
            + "\(identifier: "integer_value") bigint, \(identifier: "real_value") double precision, "
            + "\(identifier: "text_value") text, \(identifier: "blob_value") bytea, "
            + "PRIMARY KEY (\(identifier: "transaction"), \(identifier: "position"), \(identifier: "name")))",
        // Retention by age and fetches bounded by a date read the rows they select (layout version 3).
        "CREATE INDEX IF NOT EXISTS \(identifier: HistoryTables.timestampIndex) ON \(identifier: HistoryTables.transactions) "
            + "(\(identifier: "timestamp"))",
    ]

    /// The four typed columns holding a tombstone's value, in this order.
    static let tombstoneValueColumns = ["integer_value", "real_value", "text_value", "blob_value"]

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
