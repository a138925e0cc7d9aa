import Foundation

/// The store-neutral SQL of history reads, shared by every store keeping the history tables (`HistoryTables`).
extension StoreHistoryFetch {
    /// The SELECT of the transactions the request selects from `strata_history_transactions`, in its order and
    /// within its limit, spelled with `dialect`'s placeholders.
    package func selection(columns: String, dialect: some SQLDialect) -> (sql: String, bindings: [StoredValue]) {
        var clauses: [String] = []
        var bindings: [StoredValue] = []
        func bind(_ value: StoredValue) -> String {
            bindings.append(value)
            return dialect.placeholder(at: bindings.count)
        }
        let author = dialect.quote(identifier: "author")
        for condition in conditions {
            switch condition {
            case .transaction(let comparison, let value):
                clauses.append("\(dialect.quote(identifier: "id")) \(comparison.rawValue) \(bind(.integer(value)))")
            case .timestamp(let comparison, let date):
                clauses.append("\(dialect.quote(identifier: "timestamp")) \(comparison.rawValue) \(bind(.real(date.timeIntervalSinceReferenceDate)))")
            case .author(let equal, nil):
                clauses.append("\(author) IS \(equal ? "" : "NOT ")NULL")
            case .author(true, let name?):
                clauses.append("\(author) = \(bind(.text(name)))")
            case .author(false, let name?):
                // No author differs from every name, as `nil != "x"` is true in Swift.
                clauses.append("(\(author) IS NULL OR \(author) <> \(bind(.text(name))))")
            case .never:
                clauses.append("1 = 0")
            }
        }
        var sql = "SELECT \(columns) FROM \(dialect.quote(identifier: HistoryTables.transactions))"
        if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
        let id = dialect.quote(identifier: "id")
        switch order {
        case .transaction(let ascending): sql += " ORDER BY \(id) \(ascending ? "ASC" : "DESC")"
        case .timestamp(let ascending):
            sql += " ORDER BY \(dialect.quote(identifier: "timestamp")) \(ascending ? "ASC" : "DESC"), \(id) \(ascending ? "ASC" : "DESC")"
        }
        if let limit { sql += " LIMIT \(bind(.integer(Int64(max(0, limit)))))" }
        return (sql, bindings)
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

extension StoredHistoryChange {
    /// The changes one `strata_history_changes` row stands for: `count` changes of `kind` at consecutive positions
    /// from `firstPosition`, to the rows `keys` lists after `firstRow` (``HistoryKeyList``; `nil`: consecutive rows);
    /// updates name their properties in `attributes` (comma-separated), deletes take their values from `tombstones`
    /// by position. An unknown kind gives none.
    package static func expanded(kind rawKind: Int64, entityName: String, firstRow: Int64, firstPosition: Int64, count: Int64,
                                 keys: [UInt8]? = nil, attributes: String?, tombstones: [Int64: [String: StoredValue]]?) -> [StoredHistoryChange] {
        guard let recorded = HistoryTables.Kind(rawValue: rawKind) else { return [] }
        let names = (attributes ?? "").isEmpty ? [] : (attributes ?? "").split(separator: ",").map(String.init)
        return HistoryKeyList.keys(first: firstRow, count: count, list: keys).enumerated().map { step, row in
            let position = firstPosition + Int64(step)
            let kind: Kind = switch recorded {
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
