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
        .init("INSERT INTO \(HistoryTables.transactions) (\"timestamp\", author, bundle, process) VALUES ($1, $2, $3, $4) RETURNING id",
              [.real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
               .text(StoredHistoryTransaction.currentBundleIdentifier), .text(StoredHistoryTransaction.currentProcessIdentifier)])
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
            [.integer(transaction), .integer(change.position), .integer(change.kind.rawValue), .text(change.entity),
             .integer(change.row), .integer(change.count), change.attributes.map { .text($0) } ?? .null,
             change.keys.map { .blob($0) } ?? .null]
        }
        return insert(into: HistoryTables.changes, columns: "\"transaction\", position, kind, entity, \"row\", count, attributes, keys",
                      rows: changeRows)
            + insert(into: HistoryTables.tombstones, columns: "\"transaction\", position, name, \(PostgresHistoryTables.tombstoneValueColumns)",
                     rows: tombstones.map { tombstone in
                         [.integer(transaction), .integer(tombstone.position), .text(tombstone.name)]
                             + PostgresHistoryTables.tombstoneColumns(tombstone.value)
                     })
    }

    /// Inserts `rows` with as few statements as PostgreSQL's limit of 65,535 parameters allows.
    private func insert(into table: String, columns: String, rows: [[StoredValue]]) -> [PostgresConnection.PipelinedStatement] {
        guard let width = rows.first?.count else { return [] }
        let perStatement = 65_535 / width
        return stride(from: 0, to: rows.count, by: perStatement).map { start in
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            let values = chunk.indices.map { row in
                "(" + (1...width).map { "$\((row - start) * width + $0)" }.joined(separator: ", ") + ")"
            }
            return .init("INSERT INTO \(table) (\(columns)) VALUES \(values.joined(separator: ", "))", chunk.flatMap { $0 }, isPrepared: false)
        }
    }
}
