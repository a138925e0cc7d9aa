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
                    let selection = request.selection(
                        columns:
                            "\(identifier: "id"), \(identifier: "timestamp"), \(identifier: "author"), \(identifier: "bundle"), \(identifier: "process")"
                    )
                    var transactions: [StoredHistoryTransaction] = []
                    for row in try connection.query(selection) where row.count == 5 {
                        guard case .integer(let identifier) = row[0] else { continue }
                        let seconds: Double =
                            switch row[1] {
                            case .real(let real): real
                            case .integer(let integer): Double(integer)
                            default: 0
                            }
                        transactions.append(
                            StoredHistoryTransaction(
                                identifier: identifier, timestamp: Date(timeIntervalSinceReferenceDate: seconds),
                                author: Self.text(row[2]), bundleIdentifier: Self.text(row[3]) ?? "",
                                processIdentifier: Self.text(row[4]) ?? ""))
                    }
                    if request.includesChanges, !transactions.isEmpty {
                        try readChanges(into: &transactions, connection)
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
    /// transaction, and remembers the newest one deleted of each author.
    func deleteHistory(_ request: StoreHistoryFetch, on connection: SQLiteConnection) throws {
        try HistoryTables.delete(request, query: { try connection.query($0) }, run: { try connection.run($0) })
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

    /// Reads the changes (and tombstones) of `transactions`: one range scan over their identifiers each.
    private func readChanges(into transactions: inout [StoredHistoryTransaction], _ connection: SQLiteConnection) throws
    {
        var positions: [Int64: Int] = [:]
        for (offset, transaction) in transactions.enumerated() { positions[transaction.identifier] = offset }
        let identifiers = transactions.map(\.identifier)
        guard let lowest = identifiers.min(), let highest = identifiers.max() else { return }
        let range: SQLFragment =
            "\(identifier: "transaction") BETWEEN \(bind: .integer(lowest)) AND \(bind: .integer(highest))"
        var tombstones: [Int64: [Int64: [String: StoredValue]]] = [:]
        for row in try connection.query(
            "SELECT \(identifier: "transaction"), \(identifier: "position"), \(identifier: "name"), \(identifier: "value") "
                + "FROM \(identifier: HistoryTables.tombstones) WHERE \(range)")
        where row.count == 4 {
            guard case .integer(let transaction) = row[0], case .integer(let position) = row[1],
                let name = Self.text(row[2])
            else { continue }
            tombstones[transaction, default: [:]][position, default: [:]][name] = row[3]
        }
        // A store of the first history layout, opened read-only, has no key lists (and needs none).
        let keys: SQLFragment = HistoryTables.hasKeyLists(on: connection) ? "\(identifier: "keys")" : "NULL"
        let columns = ["transaction", "position", "kind", "entity", "row", "attributes", "count"]
        let statement = try connection.prepareBound(
            "SELECT \(SQLFragment.joined(columns.map(SQLFragment.identifier), separator: ", ")), \(keys) "
                + "FROM \(identifier: HistoryTables.changes) WHERE \(range) "
                + "ORDER BY \(identifier: "transaction"), \(identifier: "position")")
        defer { statement.reset() }
        while try statement.step() {
            let transaction = statement.int64(at: 0)
            guard let offset = positions[transaction] else { continue }
            transactions[offset].changes += StoredHistoryChange.expanded(
                kind: statement.int64(at: 2), entityName: statement.text(at: 3), firstRow: statement.int64(at: 4),
                firstPosition: statement.int64(at: 1), count: statement.int64(at: 6),
                keys: Self.bytes(statement.storedValue(at: 7)),
                attributes: Self.text(statement.storedValue(at: 5)),
                tombstones: tombstones[transaction])
        }
    }

    private static func bytes(_ value: StoredValue) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }

    private static func text(_ value: StoredValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}
