import Foundation
import Strata

/// Reading and deleting the persistent history a PostgreSQL store records (`PostgresHistoryRecorder`), with the
/// SQLite store's semantics: the same request, order, limit and `historyTokenExpired` after deletions
/// (`HistoryDeletionMarks`).
extension PostgresStore {
    package func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction] {
        try withConnection("fetch the history") { connection in
            // One transaction, so the transactions and their changes come from the same snapshot.
            try connection.transaction {
                try connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                // A read-only open of a store written before history was recorded has no tables (a writable open adds them).
                // Nor has one of a store written before key lists the `keys` column.
                let exists = try connection.query(
                    "SELECT to_regclass(\(bind: .text(HistoryTables.transactions))) IS NOT NULL, EXISTS (SELECT 1 FROM pg_attribute "
                        + "WHERE attrelid = to_regclass(\(bind: .text(HistoryTables.changes))) AND attname = 'keys' AND NOT attisdropped)"
                )
                guard exists.text(row: 0, column: 0) == "t" else { return [] }
                let hasKeyLists = exists.text(row: 0, column: 1) == "t"
                try checkNotExpired(request, connection)
                // What the history shows, reads must show too: a replica serves them once it has replayed this far.
                readReplicas?.requireCurrentPosition(of: connection)
                var transactions: [StoredHistoryTransaction] = []
                try Self.rows(request.transactionSelection, connection) {
                    transactions.append(StoredHistoryTransaction(row: $0))
                }
                if request.includesChanges, !transactions.isEmpty {
                    try StoredHistoryTransaction.readChanges(
                        into: &transactions, tombstoneValueColumns: PostgresHistoryTables.tombstoneValueColumns,
                        keyLists: hasKeyLists
                    ) { query, body in try Self.rows(query, connection, body) }
                }
                return transactions
            }
        }
    }

    /// Deletes the transactions `request` selects, with their changes and tombstones, and remembers the newest
    /// one deleted.
    /// - Throws: `StrataError.readOnlyContainer`, or `StrataError.storeFailure`.
    package func deleteHistory(_ request: StoreHistoryFetch) throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "delete history") }
        try withConnection("delete history") { connection in
            try connection.transaction { try deleteHistory(request, on: connection) }
        }
    }

    /// Deletes the transactions `request` selects, with their changes and tombstones, inside the caller's
    /// transaction, and remembers the newest one deleted of each author.
    func deleteHistory(_ request: StoreHistoryFetch, on connection: PostgresConnection) throws {
        try HistoryTables.delete(
            request, query: { try connection.query($0).storedRows }, run: { _ = try connection.query($0) })
    }

    /// Deletes the history past the configuration's retention (older than its interval, beyond its limit), inside
    /// the caller's transaction.
    func pruneHistory(_ connection: PostgresConnection) throws {
        try configuration.historyRetention.prune(
            newestBeyondLimit: { query in
                let rows = try connection.query(query)
                return rows.count > 0 && !rows.isNull(row: 0, column: 0) ? rows.int64(row: 0, column: 0) : nil
            }, delete: { try deleteHistory($0, on: connection) })
    }

    /// Throws `historyTokenExpired` when history the request would have returned after its token was deleted.
    private func checkNotExpired(_ request: StoreHistoryFetch, _ connection: PostgresConnection) throws {
        guard request.readsAfterTransaction != nil else { return }
        let marks = HistoryDeletionMarks(rows: try connection.query(HistoryTables.deletionMarksQuery).storedRows)
        try request.checkNotExpired(marks, storeIdentifier: identifier)
    }

    /// Runs `query` and hands each of its rows to `body`.
    private static func rows(
        _ query: SQLFragment, _ connection: PostgresConnection, _ body: (PostgresRow) -> Void
    ) throws {
        let result = try connection.query(query)
        let cursor = PostgresRow(result: result)
        for row in 0..<result.count {
            cursor.row = row
            body(cursor)
        }
    }
}
