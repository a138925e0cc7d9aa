import Foundation
import Strata

/// Records one save's history inside the save's own PostgreSQL transaction, as `HistoryRecorder` does on SQLite:
/// the transaction row first (its identifier from the table's identity sequence), then every change the writer
/// makes, so a failed save, rolled back, leaves no history either.
///
/// Changes are gathered in memory and written with multi-row `INSERT`s (``flushStatements()``; a round trip per
/// change would cost more than the change), a run of changes of one kind, entity and attribute list as one row
/// with its keys (`HistoryKeyList`), as on SQLite. Relationship changes of stored rows join the row's update in the same
/// save, or are recorded as updates of their own.
struct PostgresHistoryRecorder {
    let connection: PostgresConnection
    /// The transaction identifier of the save being recorded.
    let transaction: Int64
    /// The changes noted so far: a run of inserts or deletes of one entity as one entry as it is noted (a save of
    /// many rows keeps no entry per row), an update as an entry of its own until ``flushStatements()``.
    private var changes: [Change] = []
    /// How many changes (rows) have been noted: the position of the next one.
    private var noted: Int64 = 0
    private var tombstones: [(position: Int64, name: String, value: StoredValue)] = []
    /// Where each row's update is in `changes`, so relationship names can join it.
    private var updates: [RowKey: Int] = [:]

    /// Consecutive changes of one kind, entity and attribute list, from position `position`.
    private struct Change {
        let kind: HistoryTables.Kind
        let entity: String
        let position: Int64
        let row: Int64
        var attributes: String?
        var count: Int64 = 1
        var keys: HistoryKeyList

        init(_ kind: HistoryTables.Kind, _ entity: String, position: Int64, row: Int64, attributes: String?) {
            (self.kind, self.entity, self.position, self.row, self.attributes) = (kind, entity, position, row, attributes)
            keys = HistoryKeyList(first: row)
        }

        /// Whether `other` follows this change in one history row.
        func joins(_ other: Change) -> Bool {
            other.kind == kind && other.entity == entity && other.attributes == attributes
        }

        /// Appends the rows of `other` (which `joins` this change).
        mutating func append(_ other: Change) {
            if other.count == 1 {
                keys.append(other.row)
            } else {
                for key in HistoryKeyList.keys(first: other.row, count: other.count, list: other.keys.stored) { keys.append(key) }
            }
            count += other.count
        }
    }

    private struct RowKey: Hashable {
        let entity: String
        let row: Int64
    }

    /// The statement writing the transaction row (`RETURNING id`), for the save to send with its `BEGIN`.
    static func transactionRow(author: String?) -> PostgresConnection.PipelinedStatement {
        .init("INSERT INTO \(HistoryTables.transactions) (\"timestamp\", author, bundle, process) VALUES ($1, $2, $3, $4) RETURNING id",
              [.real(Date().timeIntervalSinceReferenceDate), author.map { .text($0) } ?? .null,
               .text(StoredHistoryTransaction.currentBundleIdentifier), .text(StoredHistoryTransaction.currentProcessIdentifier)])
    }

    /// Records the changes of the transaction whose row ``transactionRow(author:)`` wrote, `inserted` its result.
    init(connection: PostgresConnection, inserted: PostgresResult) {
        self.connection = connection
        self.transaction = inserted.int64(row: 0, column: 0)
    }

    /// Notes an insert or an update (with its changed properties' names, comma-separated).
    mutating func record(_ kind: HistoryTables.Kind, _ entity: Schema.Entity, row: Int64, attributes: String? = nil) {
        let position = noted
        noted += 1
        // An update stays an entry of its own: a relationship change may still join its attribute list. (Compared
        // and extended in place: a copy of the entry would copy its key list.)
        if kind != .update, let last = changes.indices.last, changes[last].kind == kind,
           changes[last].attributes == attributes, changes[last].entity == entity.name {
            changes[last].keys.append(row)
            changes[last].count += 1
            return
        }
        if kind == .update { updates[RowKey(entity: entity.name, row: row)] = changes.count }
        changes.append(Change(kind, entity.name, position: position, row: row, attributes: attributes))
    }

    /// Notes a deletion with the row's `.preserveValueOnDeletion` values (the entity's `preservedPropertyIndexes`'
    /// values, in that order; empty when it has none).
    mutating func recordDelete(_ entity: Schema.Entity, row: Int64, preserved values: [StoredValue]) {
        let position = noted
        record(.delete, entity, row: row)
        for (index, value) in zip(entity.preservedPropertyIndexes, values) {
            tombstones.append((position, entity.properties[index].name, value))
        }
    }

    /// Notes the deletion of `rows`, in order, of an entity that preserves no values on deletion (no tombstones):
    /// one run, extended without a check per row.
    mutating func recordDeletes(_ entity: Schema.Entity, rows: [Int64]) {
        guard let first = rows.first else { return }
        record(.delete, entity, row: first)
        let run = changes.count - 1
        for row in rows.dropFirst() { changes[run].keys.append(row) }
        changes[run].count += Int64(rows.count - 1)
        noted += Int64(rows.count - 1)
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

    /// The statements writing the noted changes and tombstones, multi-row `INSERT`s run unprepared (their length
    /// varies from save to save), for the save to send in one pipeline with its other last statements.
    func flushStatements() -> [PostgresConnection.PipelinedStatement] {
        var rows: [[StoredValue]] = []
        var index = 0
        while index < changes.count {
            var run = changes[index]
            index += 1
            while index < changes.count, run.joins(changes[index]) {
                run.append(changes[index])
                index += 1
            }
            rows.append([.integer(transaction), .integer(run.position), .integer(run.kind.rawValue), .text(run.entity),
                         .integer(run.row), .integer(run.count), run.attributes.map { .text($0) } ?? .null,
                         run.keys.stored.map { .blob($0) } ?? .null])
        }
        return insert(into: HistoryTables.changes, columns: "\"transaction\", position, kind, entity, \"row\", count, attributes, keys",
                      rows: rows)
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
