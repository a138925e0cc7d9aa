import Strata
import Synchronization

extension PostgresStore {
    /// Empties every model and join table of the store's schema and deletes the whole history, in one transaction:
    /// tokens taken before then expire. The tables' identity sequences continue (no `RESTART IDENTITY`), so an
    /// identifier taken before the erase never names a row inserted after it.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeClosed`, `StrataError.storeFailure`.
    package func eraseAllData() throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "erase the store") }
        let tables = SQLFragment.joined(schema.storedTableNames.map(SQLFragment.identifier), separator: ", ")
        try withConnection("erase the store", isRead: false) { connection in
            try connection.transaction {
                try connection.query("TRUNCATE \(tables)")
                let newest = try connection.query(HistoryTables.newestTransactionQuery)
                try deleteHistory(StoreHistoryFetch(), on: connection)
                // The erase itself is in no transaction: every token taken before it expires, the newest too.
                let through = newest.count > 0 ? newest.int64(row: 0, column: 0) : 0
                if through > 0 { try connection.query(HistoryTables.recordDeleted(through: through + 1)) }
            }
        }
        erasures.add(1, ordering: .sequentiallyConsistent)
    }

    package var eraseCount: Int { erasures.load(ordering: .sequentiallyConsistent) }
}
