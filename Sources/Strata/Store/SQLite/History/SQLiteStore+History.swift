import Foundation

extension SQLiteStore {
    package func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction] {
        try withConnection { connection in
            // A store opened before any writer added the history tables looks again: one may have since.
            if !recordsHistory {
                guard HistoryTables.exist(on: connection) else { return [] }
                historyTablesExist.store(true, ordering: .relaxed)
            }
            return try translatingErrors("fetch the history") {
                // One read transaction, so the transactions and their changes come from the same snapshot.
                try connection.transaction {
                    try checkNotExpired(request, connection)
                    var transactions: [StoredHistoryTransaction] = []
                    try rows(request.transactionSelection, connection) { (row: SQLiteStatement) in
                        transactions.append(StoredHistoryTransaction(row: row))
                    }
                    if request.includesChanges, !transactions.isEmpty {
                        let columns = HistoryTables.laterColumns(on: connection)
                        try StoredHistoryTransaction.readChanges(
                            into: &transactions, tombstoneValueColumns: ["value"], keyLists: columns.keyLists,
                            inlineChanges: columns.inlineChanges
                        ) { query, body in try rows(query, connection, body) }
                    }
                    return transactions
                }
            }
        }
    }

    package func deleteHistory(_ request: StoreHistoryFetch) throws {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "delete history") }
        guard recordsHistory else { return }
        try withConnection { connection in
            try translatingErrors("delete history") {
                try connection.transaction { try deleteHistory(request, on: connection) }
            }
        }
    }

    /// Deletes the transactions `request` selects, with their changes and tombstones, inside the caller's
    /// transaction, and remembers the newest one deleted of each author, and of all (so no later save takes its
    /// identifier: ``HistoryTables/transactionInsert``).
    func deleteHistory(_ request: StoreHistoryFetch, on connection: SQLiteConnection) throws {
        let newest = try HistoryTables.delete(
            request, query: { try connection.query($0) }, run: { try connection.run($0) })
        if let newest { try connection.run(HistoryTables.recordIssued(through: newest)) }
    }

    /// Deletes the history past the store's retention (older than its interval, beyond its limit), inside the
    /// caller's transaction.
    func pruneHistory(_ connection: SQLiteConnection) throws {
        try historyRetention.prune(
            newestBeyondLimit: { query in
                if case .integer(let identifier)? = try connection.query(query).first?.first { return identifier }
                return nil
            }, delete: { try deleteHistory($0, on: connection) })
    }

    /// Throws `historyTokenExpired` when history the request would have returned after its token was deleted.
    private func checkNotExpired(_ request: StoreHistoryFetch, _ connection: SQLiteConnection) throws {
        guard request.readsAfterTransaction != nil else { return }
        let marks = HistoryDeletionMarks(rows: try connection.query(HistoryTables.deletionMarksQuery))
        try request.checkNotExpired(marks, storeIdentifier: identifier)
    }

    /// Runs `query` and hands each of its rows to `body`.
    private func rows(
        _ query: SQLFragment, _ connection: SQLiteConnection, _ body: (SQLiteStatement) -> Void
    ) throws {
        let statement = try connection.prepareBound(query)
        defer { statement.reset() }
        while try statement.step() { body(statement) }
    }
}
