import Foundation

/// The store-neutral SQL of history reads, shared by every store keeping the history tables (`HistoryTables`).
extension StoreHistoryFetch {
    /// The SELECT of `columns` of the transactions the request selects from `strata_history_transactions`, in its
    /// order and within its limit. Unordered (`ordered` false, for a deletion without a limit, where the order
    /// doesn't matter), a condition on the time is free to search the index by time rather than scan in key order.
    package func selection(columns: SQLFragment, ordered: Bool = true) -> SQLFragment {
        var clauses: [SQLFragment] = []
        for condition in conditions {
            switch condition {
            case .transaction(let comparison, let value):
                clauses.append("\(identifier: "id") \(sql: comparison.rawValue) \(bind: .integer(value))")
            case .timestamp(let comparison, let date):
                clauses.append(
                    "\(identifier: "timestamp") \(sql: comparison.rawValue) \(bind: .real(date.timeIntervalSinceReferenceDate))"
                )
            case .author(let equal, nil):
                clauses.append("\(identifier: "author") IS \(sql: equal ? "" : "NOT ")NULL")
            case .author(true, let name?):
                clauses.append("\(identifier: "author") = \(bind: .text(name))")
            case .author(false, let name?):
                // No author differs from every name, as `nil != "x"` is true in Swift.
                clauses.append("(\(identifier: "author") IS NULL OR \(identifier: "author") <> \(bind: .text(name)))")
            case .never:
                clauses.append("1 = 0")
            }
        }
        var sql: SQLFragment = "SELECT \(columns) FROM \(identifier: HistoryTables.transactions)"
        if !clauses.isEmpty { sql.append(" WHERE " + .joined(clauses, separator: " AND ")) }
        guard ordered || limit != nil else { return sql }
        switch order {
        case .transaction(let ascending): sql.append(" ORDER BY \(identifier: "id") \(sql: ascending ? "ASC" : "DESC")")
        case .timestamp(let ascending):
            let direction = ascending ? "ASC" : "DESC"
            sql.append(" ORDER BY \(identifier: "timestamp") \(sql: direction), \(identifier: "id") \(sql: direction)")
        }
        if let limit { sql.append(" LIMIT \(bind: .integer(Int64(max(0, limit))))") }
        return sql
    }

    /// The transaction the request reads after (its highest `>`/`>=` bound on the identifier), which must not be
    /// older than deleted history: `nil` when it has no such bound.
    package var readsAfterTransaction: Int64? {
        conditions.compactMap { condition -> Int64? in
            switch condition {
            case .transaction(.greater, let value): value
            case .transaction(.greaterOrEqual, let value): value - 1
            default: nil
            }
        }.max()
    }
}

extension HistoryTables {
    /// The `INSERT` of one save's transaction row: its time, author, program and process.
    package static func transactionRow(author: String?) -> SQLFragment {
        "INSERT INTO \(identifier: transactions) (\(columns(transactionColumns))) "
            + "VALUES (\(SQLFragment.joined(transactionValues(author: author).map(SQLFragment.binding), separator: ", ")))"
    }

    /// The columns a save's transaction row writes, in the order of ``transactionValues(author:)``.
    package static let transactionColumns = ["timestamp", "author", "bundle", "process"]

    /// The values of a save's transaction row written now: the time, the author, the program and the process.
    package static func transactionValues(author: String?) -> [StoredValue] {
        [
            .real(transactionTime()), author.map { .text($0) } ?? .null,
            .text(StoredHistoryTransaction.currentBundleIdentifier),
            .text(StoredHistoryTransaction.currentProcessIdentifier),
        ]
    }

    /// The time a transaction row written now records.
    package static func transactionTime() -> Double {
        Date().timeIntervalSinceReferenceDate
    }

    /// The `INSERT` of one row into `table`'s `columns`, its values bound row by row.
    package static func insert(into table: String, columns names: [String]) -> SQLFragment {
        "INSERT INTO \(identifier: table) (\(columns(names))) VALUES (\(SQLFragment.parameters(names.count)))"
    }

    /// Column names as a list of identifiers.
    package static func columns(_ names: [String]) -> SQLFragment {
        .joined(names.map(SQLFragment.identifier), separator: ", ")
    }

    /// The newest recorded transaction's identifier (0: none).
    package static let newestTransactionQuery: SQLFragment =
        "SELECT coalesce(max(\(identifier: "id")), 0) FROM \(identifier: transactions)"

    /// The statements deleting the transactions `selection` selects with their tombstones and changes, in that
    /// order, given the selection's identifier range (``selectedAuthors(_:)``).
    ///
    /// The range bounds each table's primary key, so a deletion reads the rows it deletes: without it PostgreSQL
    /// hashes the selection and scans every change of the history, its cost growing with the table, not with the
    /// transactions deleted.
    package static func deletions(
        of selection: SQLFragment, from oldest: Int64, through newest: Int64
    )
        -> [SQLFragment]
    {
        let range: SQLFragment = "BETWEEN \(bind: .integer(oldest)) AND \(bind: .integer(newest))"
        return [tombstones, changes].map { table in
            "DELETE FROM \(identifier: table) WHERE \(identifier: "transaction") \(range) "
                + "AND \(identifier: "transaction") IN (\(selection))"
        } + [
            "DELETE FROM \(identifier: transactions) WHERE \(identifier: "id") \(range) AND \(identifier: "id") IN (\(selection))"
        ]
    }
}

extension StoredHistoryChange {
    /// The changes one `strata_history_changes` row stands for: `count` changes of `kind` at consecutive positions
    /// from `firstPosition`, to the rows `keys` lists after `firstRow` (``HistoryKeyList``; `nil`: consecutive rows);
    /// updates name their properties in `attributes` (comma-separated), deletes take their values from `tombstones`
    /// by position. An unknown kind gives none.
    package static func expanded(
        kind rawKind: Int64, entityName: String, firstRow: Int64, firstPosition: Int64, count: Int64,
        keys: [UInt8]? = nil, attributes: String?, tombstones: [Int64: [String: StoredValue]]?
    ) -> [StoredHistoryChange] {
        guard let recorded = HistoryTables.Kind(rawValue: rawKind) else { return [] }
        let names = (attributes ?? "").isEmpty ? [] : (attributes ?? "").split(separator: ",").map(String.init)
        return HistoryKeyList.keys(first: firstRow, count: count, list: keys).enumerated().map { step, row in
            let position = firstPosition + Int64(step)
            let kind: Kind =
                switch recorded {
                case .insert: .insert
                case .update: .update(names)
                case .delete: .delete(tombstones?[position] ?? [:])
                }
            return StoredHistoryChange(kind: kind, entityName: entityName, primaryKey: row, position: position)
        }
    }
}

extension StoredHistoryTransaction {
    /// The program name recorded as each transaction's `bundleIdentifier` (Linux has no bundles; the bundle
    /// identifier is used where Foundation knows one).
    package static let currentBundleIdentifier = Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// The process identifier recorded with each transaction.
    package static let currentProcessIdentifier = String(ProcessInfo.processInfo.processIdentifier)
}
