import Foundation
import Strata

/// Records one save's history inside the save's own PostgreSQL transaction: the transaction row goes with `BEGIN`
/// (its identifier from the table's identity sequence), the rows derived from the save's journal
/// (``SaveJournal/historyRows()``) with `COMMIT`, as multi-row `INSERT`s (a round trip per row would cost more than
/// the change), so a failed save, rolled back, leaves no history either.
struct PostgresHistoryRecorder {
    /// The transaction identifier of the save being recorded.
    let transaction: Int64

    /// The statement writing the transaction row (`RETURNING id`), for the save to send with its `BEGIN`.
    static func transactionRow(author: String?) -> PostgresConnection.PipelinedStatement {
        .init(HistoryTables.transactionRow(author: author) + " RETURNING id")
    }

    /// Records the changes of the transaction whose row ``transactionRow(author:)`` wrote, `inserted` its result.
    init(inserted: PostgresResult) {
        self.transaction = inserted.int64(row: 0, column: 0)
    }

    /// The statements writing the history rows of the save `journal` describes, run unprepared (their length
    /// varies from save to save), for the save to send in one pipeline with its other last statements.
    func statements(recording journal: SaveJournal?) -> [PostgresConnection.PipelinedStatement] {
        guard let (changes, tombstones) = journal?.historyRows() else { return [] }
        let changeRows: [[StoredValue]] = changes.map { change in
            [
                .integer(transaction), .integer(change.position), .integer(change.kind.rawValue), .text(change.entity),
                .integer(change.row), .integer(change.count), change.attributes.map { .text($0) } ?? .null,
                change.keys.map { .blob($0) } ?? .null,
            ]
        }
        return insert(
            into: HistoryTables.changes,
            columns: HistoryTables.columns([
                "transaction", "position", "kind", "entity", "row", "count", "attributes", "keys",
            ]),
            rows: changeRows)
            + insert(
                into: HistoryTables.tombstones,
                columns: HistoryTables.columns(
                    ["transaction", "position", "name"] + PostgresHistoryTables.tombstoneValueColumns),
                rows: tombstones.map { tombstone in
                    [.integer(transaction), .integer(tombstone.position), .text(tombstone.name)]
                        + PostgresHistoryTables.tombstoneColumns(tombstone.value)
                })
    }

    /// Inserts `rows` with as few statements as PostgreSQL's limit of 65,535 parameters allows.
    private func insert(
        into table: String, columns: SQLFragment, rows: [[StoredValue]]
    ) -> [PostgresConnection.PipelinedStatement] {
        guard let width = rows.first?.count else { return [] }
        let perStatement = 65_535 / width
        return stride(from: 0, to: rows.count, by: perStatement).map { start in
            let values = rows[start..<min(start + perStatement, rows.count)].map { row in
                "(" + SQLFragment.joined(row.map(SQLFragment.binding), separator: ", ") + ")"
            }
            return .init(
                "INSERT INTO \(identifier: table) (\(columns)) VALUES \(SQLFragment.joined(values, separator: ", "))",
                isPrepared: false)
        }
    }
}
