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
                let columns = ["id", "timestamp", "author", "bundle", "process"].map(SQLFragment.identifier)
                let rows = try connection.query(request.selection(columns: .joined(columns, separator: ", ")))
                var transactions = (0..<rows.count).map { row in
                    StoredHistoryTransaction(
                        identifier: rows.int64(row: row, column: 0),
                        timestamp: Date(
                            timeIntervalSinceReferenceDate: Self.real(rows.storedValue(row: row, column: 1))),
                        author: rows.text(row: row, column: 2), bundleIdentifier: rows.text(row: row, column: 3) ?? "",
                        processIdentifier: rows.text(row: row, column: 4) ?? "")
                }
                if request.includesChanges, !transactions.isEmpty {
                    try readChanges(into: &transactions, keyLists: hasKeyLists, connection)
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

    /// Reads the changes (and tombstones) of `transactions`: one range scan over their identifiers each.
    private func readChanges(
        into transactions: inout [StoredHistoryTransaction], keyLists: Bool, _ connection: PostgresConnection
    ) throws {
        var offsets: [Int64: Int] = [:]
        for (offset, transaction) in transactions.enumerated() { offsets[transaction.identifier] = offset }
        guard let lowest = offsets.keys.min(), let highest = offsets.keys.max() else { return }
        let range: SQLFragment =
            "\(identifier: "transaction") BETWEEN \(bind: .integer(lowest)) AND \(bind: .integer(highest))"
        var tombstones: [Int64: [Int64: [String: StoredValue]]] = [:]
        let stones = try connection.query(
            "SELECT \(identifier: "transaction"), position, name, \(sql: PostgresHistoryTables.tombstoneValueColumns) "
                + "FROM \(identifier: HistoryTables.tombstones) WHERE \(range)")
        for row in 0..<stones.count {
            let value =
                (3...6).lazy.map { stones.storedValue(row: row, column: Int32($0)) }.first { $0 != .null } ?? .null
            tombstones[stones.int64(row: row, column: 0), default: [:]][
                stones.int64(row: row, column: 1), default: [:]][
                    stones.text(row: row, column: 2) ?? ""] = value
        }
        let changes = try connection.query(
            "SELECT \(identifier: "transaction"), position, kind, entity, \(identifier: "row"), attributes, count, \(sql: keyLists ? "keys" : "NULL") "
                + "FROM \(identifier: HistoryTables.changes) WHERE \(range) ORDER BY \(identifier: "transaction"), position"
        )
        for row in 0..<changes.count {
            let transaction = changes.int64(row: row, column: 0)
            guard let offset = offsets[transaction] else { continue }
            transactions[offset].changes += StoredHistoryChange.expanded(
                kind: changes.int64(row: row, column: 2), entityName: changes.text(row: row, column: 3) ?? "",
                firstRow: changes.int64(row: row, column: 4), firstPosition: changes.int64(row: row, column: 1),
                count: changes.int64(row: row, column: 6), keys: Self.bytes(changes.storedValue(row: row, column: 7)),
                attributes: changes.text(row: row, column: 5),
                tombstones: tombstones[transaction])
        }
    }

    private static func bytes(_ value: StoredValue) -> [UInt8]? {
        if case .blob(let bytes) = value { return bytes }
        return nil
    }

    private static func real(_ value: StoredValue) -> Double {
        switch value {
        case .real(let real): real
        case .integer(let integer): Double(integer)
        default: 0
        }
    }
}
