import Foundation

/// Reading the history tables (`HistoryTables`) into ``StoredHistoryTransaction``s, written once for every store
/// that keeps them: the columns read and their order, and how rows become transactions, changes and tombstones. A
/// store runs the queries and hands over each row.
extension StoreHistoryFetch {
    /// The SELECT of the transactions the request selects, with the columns
    /// ``StoredHistoryTransaction/init(row:)`` reads.
    package var transactionSelection: SQLFragment {
        selection(columns: HistoryTables.columns(["id", "timestamp", "author", "bundle", "process"]))
    }
}

extension StoredHistoryTransaction {
    /// The transaction a row of ``StoreHistoryFetch/transactionSelection`` records, without its changes.
    package init(row: some StoreRow) {
        let seconds: Double =
            switch row.storedValue(at: 1) {
            case .real(let real): real
            case .integer(let integer): Double(integer)
            default: 0
            }
        self.init(
            identifier: row.int64(at: 0), timestamp: Date(timeIntervalSinceReferenceDate: seconds),
            author: Self.text(row.storedValue(at: 2)), bundleIdentifier: Self.text(row.storedValue(at: 3)) ?? "",
            processIdentifier: Self.text(row.storedValue(at: 4)) ?? "")
    }

    /// Reads the changes (and the tombstones of deletes) of `transactions`, one range scan over their identifiers
    /// each. `rows` runs a query and hands over each of its rows.
    ///
    /// - Parameters:
    ///   - tombstoneValueColumns: The columns of `strata_history_tombstones` that hold a value (SQLite's one
    ///     untyped column, PostgreSQL's typed ones): a tombstone's value is the first that isn't `NULL`.
    ///   - keyLists: Whether the changes table has its `keys` column (a store of the first layout opened read-only
    ///     has not, and needs none).
    ///   - inlineChanges: Whether the transactions table holds the lone change of a save in its own columns
    ///     (``HistoryTables/inlineChangeColumns``: SQLite's layout from version 5).
    package static func readChanges<Row: StoreRow>(
        into transactions: inout [StoredHistoryTransaction], tombstoneValueColumns: [String], keyLists: Bool,
        inlineChanges: Bool = false, rows: (SQLFragment, (Row) -> Void) throws -> Void
    ) throws {
        var offsets: [Int64: Int] = [:]
        for (offset, transaction) in transactions.enumerated() { offsets[transaction.identifier] = offset }
        guard let lowest = offsets.keys.min(), let highest = offsets.keys.max() else { return }
        let range: SQLFragment =
            "\(identifier: "transaction") BETWEEN \(bind: .integer(lowest)) AND \(bind: .integer(highest))"
        var tombstones: [Int64: [Int64: [String: StoredValue]]] = [:]
        let tombstoneColumns = HistoryTables.columns(["transaction", "position", "name"] + tombstoneValueColumns)
        try rows(
            "SELECT \(tombstoneColumns) "
                + "FROM \(identifier: HistoryTables.tombstones) WHERE \(range)"
        ) { row in
            guard case .text(let name) = row.storedValue(at: 2) else { return }
            let value =
                (0..<tombstoneValueColumns.count).lazy.map { row.storedValue(at: Int32(3 + $0)) }.first { $0 != .null }
                ?? .null
            tombstones[row.int64(at: 0), default: [:]][row.int64(at: 1), default: [:]][name] = value
        }
        let columns = HistoryTables.columns(["kind", "entity", "row", "attributes", "count"])
        let keys: SQLFragment = keyLists ? "\(identifier: "keys")" : "NULL"
        var query: SQLFragment =
            "SELECT \(identifier: "transaction"), \(identifier: "position"), \(columns), \(keys) "
            + "FROM \(identifier: HistoryTables.changes) WHERE \(range)"
        if inlineChanges {
            query.append(
                " UNION ALL SELECT \(identifier: "id"), 0, \(columns), \(identifier: "keys") "
                    + "FROM \(identifier: HistoryTables.transactions) WHERE \(identifier: "id") "
                    + "BETWEEN \(bind: .integer(lowest)) AND \(bind: .integer(highest)) "
                    + "AND \(identifier: "kind") IS NOT NULL")
        }
        query.append(" ORDER BY 1, 2")
        try rows(query) { row in
            let transaction = row.int64(at: 0)
            guard let offset = offsets[transaction] else { return }
            var list: [UInt8]?
            if case .blob(let bytes) = row.storedValue(at: 7) { list = bytes }
            transactions[offset].changes += StoredHistoryChange.expanded(
                kind: row.int64(at: 2), entityName: text(row.storedValue(at: 3)) ?? "", firstRow: row.int64(at: 4),
                firstPosition: row.int64(at: 1), count: row.int64(at: 6), keys: list,
                attributes: text(row.storedValue(at: 5)), tombstones: tombstones[transaction])
        }
    }

    private static func text(_ value: StoredValue) -> String? {
        if case .text(let text) = value { return text }
        return nil
    }
}
