/// The statements every store runs on its `strata_metadata` table, which holds text values by key: the store's
/// format and identifier, the schema it records (``StoredSchema/metadataKey``), the marks of deleted history.
package enum StoreMetadata {
    /// The metadata table, found through the connection's schema search (a PostgreSQL store's bootstrap names its
    /// schema: ``insert(_:_:into:)``).
    package static let table = SQLFragment.identifier(StoreLayout.metadataTable)

    /// Checks that a store's metadata records `format`, the format this store reads.
    /// - Throws: `StrataError.notAStrataStore` at `path`, naming the format recorded (or none).
    package static func checkFormat(_ metadata: [String: String], is format: String, path: String) throws(StrataError) {
        guard metadata["format"] == format else {
            throw .notAStrataStore(path: path, reason: "unknown store format \(metadata["format"] ?? "none")")
        }
    }

    /// Inserts `value` under `key`.
    package static func insert(_ key: String, _ value: String, into metadata: SQLFragment = table) -> SQLFragment {
        "INSERT INTO \(metadata) (key, value) VALUES (\(bind: .text(key)), \(bind: .text(value)))"
    }

    /// Writes `value` under `key`, replacing the value stored there.
    package static func write(_ key: String, _ value: String, into metadata: SQLFragment = table) -> SQLFragment {
        insert(key, value, into: metadata) + " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    }
}
