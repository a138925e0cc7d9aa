/// A store built on an SQL engine (SQLite's and PostgreSQL's): the reads such stores share are written once here,
/// in ``SQLFragment``s, and a store supplies only how it runs one.
package protocol SQLPersistentStore: PersistentStore {
    /// Runs `query`, whose rows are two integer columns, and returns them in order; `operation` names what was being
    /// done in a thrown error.
    /// - Throws: `StrataError.storeFailure` (or the store's closed-store error) when the query fails.
    func integerPairs(_ query: SQLFragment, operation: @autoclosure () -> String) throws -> [(Int64, Int64)]
    /// Runs `statement`, which returns no rows, outside any save: how a package module keeps a table of its own
    /// beside the store's (its rows are no model's, so no history records them); `operation` names what was being
    /// done in a thrown error.
    /// - Throws: `StrataError.storeFailure` (or the store's closed-store error) when the statement fails.
    func execute(_ statement: SQLFragment, operation: @autoclosure () -> String) throws
    /// The statements of the store's saves, by shape, kept from one save to the next.
    var saveStatements: SaveStatementCache { get }
    /// The statements of the store's fetches, kept for the next run of the same fetch.
    var fetchStatements: FetchStatementCache { get }
}

extension SQLPersistentStore {
    /// The join-table rows of `owners`, ordered by owner and then target (each owner's targets in key order), read
    /// in chunks of `StoreLimits.keysPerStatement` keys.
    package func fetchJoinRows(
        table: String, ownerColumn: String, targetColumn: String, owners: [Int64]
    ) throws -> [(owner: Int64, target: Int64)] {
        var rows: [(owner: Int64, target: Int64)] = []
        for start in stride(from: 0, to: owners.count, by: StoreLimits.keysPerStatement) {
            let chunk = Array(owners[start..<min(start + StoreLimits.keysPerStatement, owners.count)])
            let query = Self.joinRowsQuery(
                table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owners: chunk)
            rows += try integerPairs(query, operation: "read \(table)").map { (owner: $0.0, target: $0.1) }
        }
        return rows
    }
}

extension SQLPersistentStore {
    /// The query of the join-table rows of `owners`, ordered by owner and then target.
    ///
    /// In that order the rows come straight from the join table's primary key (owner, target), which the store
    /// reads without a sort of its own; consecutive owners (a list fetched in key order) are one range of it, a
    /// statement whose text doesn't grow with the keys.
    package static func joinRowsQuery(
        table: String, ownerColumn: String, targetColumn: String, owners: [Int64]
    ) -> SQLFragment {
        let filter: SQLFragment
        if let run = owners.consecutiveRun {
            let (first, last) = (StoredValue.integer(run.lowerBound), StoredValue.integer(run.upperBound))
            filter = "\(identifier: ownerColumn) BETWEEN \(bind: first) AND \(bind: last)"
        } else {
            let keys = SQLFragment.joined(owners.map { .binding(.integer($0)) }, separator: ", ")
            filter = "\(identifier: ownerColumn) IN (\(keys))"
        }
        return "SELECT \(identifier: ownerColumn), \(identifier: targetColumn) FROM \(identifier: table) WHERE "
            + filter + " ORDER BY \(identifier: ownerColumn), \(identifier: targetColumn)"
    }
}
