import Foundation
import Strata

/// Records one save's history inside the save's own PostgreSQL transaction, as `HistoryRecorder` does on SQLite:
/// the transaction row first (its identifier from the table's identity sequence), then every change the writer
/// makes, so a failed save, rolled back, leaves no history either.
///
/// Changes are gathered in memory and written by ``flush()`` with multi-row `INSERT`s (a round trip per change
/// would cost more than the change), a run of changes of one kind, entity and attribute list as one row with its
/// keys (`HistoryKeyList`), as on SQLite. Relationship changes of stored rows join the row's update in the same
/// save, or are recorded as updates of their own.
struct PostgresHistoryRecorder {
    let connection: PostgresConnection
    /// The transaction identifier of the save being recorded.
    let transaction: Int64
    private var changes: [(kind: HistoryTables.Kind, entity: String, row: Int64, attributes: String?)] = []
    private var tombstones: [(position: Int64, name: String, value: StoredValue)] = []
    /// Where each row's update is in `changes`, so relationship names can join it.
    private var updates: [RowKey: Int] = [:]

    private struct RowKey: Hashable {
        let entity: String
        let row: Int64
    }

    /// Writes the transaction row.
    /// - Throws: `PostgresError` when the insert fails.
    init(connection: PostgresConnection, author: String?) throws {
        self.connection = connection
        let inserted = try connection.preparedQuery(
            "INSERT INTO \(HistoryTables.transactions) (\"timestamp\", author, bundle, process) VALUES ($1, $2, $3, $4) RETURNING id",
            [.real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
             .text(StoredHistoryTransaction.currentBundleIdentifier), .text(StoredHistoryTransaction.currentProcessIdentifier)])
        self.transaction = inserted.int64(row: 0, column: 0)
    }

    /// Notes an insert or an update (with its changed properties' names, comma-separated).
    mutating func record(_ kind: HistoryTables.Kind, _ entity: Schema.Entity, row: Int64, attributes: String? = nil) {
        if kind == .update { updates[RowKey(entity: entity.name, row: row)] = changes.count }
        changes.append((kind, entity.name, row, attributes))
    }

    /// Notes a deletion with the row's `.preserveValueOnDeletion` values (the entity's `preservedPropertyIndexes`'
    /// values, in that order; empty when it has none).
    mutating func recordDelete(_ entity: Schema.Entity, row: Int64, preserved values: [StoredValue]) {
        let position = Int64(changes.count)
        changes.append((.delete, entity.name, row, nil))
        for (index, value) in zip(entity.preservedPropertyIndexes, values) {
            tombstones.append((position, entity.properties[index].name, value))
        }
    }

    /// Notes that a relationship of a stored row changed (its foreign key or a join-table row): the name joins the
    /// row's update in this save, or starts one.
    mutating func noteRelationshipChange(_ entity: Schema.Entity, row: Int64, name: String) {
        let key = RowKey(entity: entity.name, row: row)
        guard let index = updates[key] else {
            record(.update, entity, row: row, attributes: name)
            return
        }
        let names = (changes[index].attributes ?? "").split(separator: ",").map(String.init)
        if !names.contains(name) { changes[index].attributes = (names + [name]).joined(separator: ",") }
    }

    /// Writes the noted changes and tombstones.
    /// - Throws: `PostgresError` when an insert fails.
    func flush() throws {
        var rows: [[StoredValue]] = []
        var start = 0
        while start < changes.count {
            let first = changes[start]
            var keys = HistoryKeyList(first: first.row)
            var end = start + 1
            while end < changes.count, changes[end].kind == first.kind, changes[end].entity == first.entity,
                  changes[end].attributes == first.attributes {
                keys.append(changes[end].row)
                end += 1
            }
            rows.append([.integer(transaction), .integer(Int64(start)), .integer(first.kind.rawValue), .text(first.entity),
                         .integer(first.row), .integer(Int64(end - start)), first.attributes.map { .text($0) } ?? .null,
                         keys.stored.map { .blob($0) } ?? .null])
            start = end
        }
        try insert(into: HistoryTables.changes, columns: "\"transaction\", position, kind, entity, \"row\", count, attributes, keys",
                   rows: rows)
        try insert(into: HistoryTables.tombstones, columns: "\"transaction\", position, name, \(PostgresHistoryTables.tombstoneValueColumns)",
                   rows: tombstones.map { tombstone in
                       [.integer(transaction), .integer(tombstone.position), .text(tombstone.name)]
                           + PostgresHistoryTables.tombstoneColumns(tombstone.value)
                   })
    }

    /// Inserts `rows` with as few statements as PostgreSQL's limit of 65,535 parameters allows.
    private func insert(into table: String, columns: String, rows: [[StoredValue]]) throws {
        guard let width = rows.first?.count else { return }
        let perStatement = 65_535 / width
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            let values = chunk.indices.map { row in
                "(" + (1...width).map { "$\((row - start) * width + $0)" }.joined(separator: ", ") + ")"
            }
            try connection.query("INSERT INTO \(table) (\(columns)) VALUES \(values.joined(separator: ", "))", chunk.flatMap { $0 })
        }
    }
}
