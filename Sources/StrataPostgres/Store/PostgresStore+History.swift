import Strata

// Persistent history is recorded by the SQLite store only so far: a PostgreSQL store records no transactions, and
// reading or deleting history says so instead of returning an empty feed that would look like "nothing changed".
extension PostgresStore {
    package func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction] {
        throw Self.historyUnavailable("fetchHistory")
    }

    package func deleteHistory(_ request: StoreHistoryFetch) throws {
        throw Self.historyUnavailable("deleteHistory")
    }

    private static func historyUnavailable(_ operation: String) -> StrataError {
        StrataError.storeFailure(
            operation: operation,
            reason: "persistent history is not recorded on PostgreSQL stores yet; only SQLite stores keep a history")
    }
}
