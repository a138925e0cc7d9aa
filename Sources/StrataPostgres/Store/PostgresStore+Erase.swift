import Strata
import Synchronization

extension PostgresStore {
    /// Empties every model and join table of the store's schema (`TRUNCATE … RESTART IDENTITY`, so keys start
    /// again as in a new store) and deletes the whole history, in one transaction: tokens taken before then expire.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeClosed`, `StrataError.storeFailure`.
    package func eraseAllData() throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "erase the store") }
        let tables = schema.storedTableNames.map { writer.dialect.quote(identifier: $0) }.joined(separator: ", ")
        try withConnection("erase the store", isRead: false) { connection in
            try connection.transaction {
                try connection.execute("TRUNCATE \(tables) RESTART IDENTITY")
                let newest = try connection.query("SELECT coalesce(max(id), 0) FROM \(HistoryTables.transactions)", [])
                try deleteHistory(StoreHistoryFetch(), on: connection)
                // The erase itself is in no transaction: every token taken before it expires, the newest too.
                let through = newest.count > 0 ? newest.int64(row: 0, column: 0) : 0
                if through > 0 {
                    try connection.query(
                        "INSERT INTO \(PostgresBootstrap.metadataTable) (key, value) VALUES ($1, $2) "
                            + "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                        [.text(HistoryTables.deletedThroughKey), .text(String(through + 1))])
                }
            }
        }
        erasures.add(1, ordering: .sequentiallyConsistent)
    }

    package var eraseCount: Int { erasures.load(ordering: .sequentiallyConsistent) }
}
