import Foundation
import Strata

extension PostgresStore {
    /// How many times a save runs when it loses a serialization race or a deadlock (SQLSTATE `40001`/`40P01`).
    static let saveAttempts = 3

    /// Writes `changes` in one transaction, as SQLite's store does: deletes, batch deletes, updates (each checked
    /// against the version the model read, in the statement that writes), inserts (upserts under
    /// `.mergeByPropertyObjectTrump`), then foreign keys and join rows. A transaction that loses a serialization
    /// race or a deadlock (after a pause of 5–20 ms times the attempts so far), or meets a prepared statement another
    /// instance's migration made stale, is run again, at most three times.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`,
    ///   `StrataError.mergeConflict` (under `.error`), or `StrataError.storeFailure`; nothing is written when it throws.
    package func save(_ changes: StoreChanges, mergePolicy: MergePolicy) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        return try withConnection("save", isRead: false) { connection in
            var attempt = 1
            while true {
                do {
                    // The history's transaction row goes with BEGIN, its changes and the NOTIFY with COMMIT: a save
                    // of a few rows waits for the server three times.
                    return try connection.transaction(beginningWith: PostgresHistoryRecorder.transactionRow(author: changes.author)) { row in
                        var writer = PostgresSaveWriter(
                            connection: connection, mergePolicy: mergePolicy, storeIdentifier: identifier, select: PostgresSelect(writer: writer))
                        // The history is recorded in the save's transaction, so it commits or rolls back with the data.
                        let history = PostgresHistoryRecorder(connection: connection, inserted: row)
                        writer.history = history
                        let result = try writer.write(changes)
                        if configuration.historyRetention.isDue(after: history.transaction) { try pruneHistory(connection) }
                        let last = (writer.history?.flushStatements() ?? []) + [commitAnnouncement(of: history.transaction)].compactMap { $0 }
                        return (result, last)
                    }
                } catch let error as PostgresError where error.isRetryable || error.isStalePlan {
                    // A stale prepared statement (a migration elsewhere changed its result type) aborted the
                    // transaction; the connection has forgotten it, so running the save again prepares it afresh.
                    guard attempt < Self.saveAttempts else {
                        throw StrataError.storeFailure(
                            operation: "save",
                            reason: "\(error.description); the save lost to concurrent transactions \(attempt) times in a row and was "
                                + "rolled back each time, so nothing of it was written; save again")
                    }
                    // A short, growing, random pause lets the transaction that won take the rows first: a save run
                    // again at once could take them ahead of it and deadlock it again.
                    StrataLog.log(.debug, "running a save again after a failed attempt", metadata: [
                        "attempt": "\(attempt + 1)", "reason": error.description], category: "postgres")
                    if error.isRetryable { Thread.sleep(forTimeInterval: Double.random(in: 0.005...0.02) * Double(attempt)) }
                    attempt += 1
                }
            }
        }
    }
}

/// Writes one save's changes on a connection inside a transaction.
struct PostgresSaveWriter {
    let connection: PostgresConnection
    let mergePolicy: MergePolicy
    let storeIdentifier: String
    let select: PostgresSelect
    var upsertedVersions: [Int: Int64] = [:]
    /// Records the save's history in its transaction.
    var history: PostgresHistoryRecorder?

    init(connection: PostgresConnection, mergePolicy: MergePolicy, storeIdentifier: String, select: PostgresSelect) {
        self.connection = connection
        self.mergePolicy = mergePolicy
        self.storeIdentifier = storeIdentifier
        self.select = select
    }

    mutating func write(_ changes: StoreChanges) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        var conflicts: [MergeConflict] = []
        try writeDeletes(changes.deletes.sorted(by: { ($0.entity.name, $0.primaryKey) < ($1.entity.name, $1.primaryKey) }),
                         conflicts: &conflicts)
        for batch in changes.batchDeletes {
            let preserved = batch.entity.preservedPropertyIndexes
            let returned = ([primaryKey] + preserved.map { column(batch.entity, $0) }).joined(separator: ", ")
            // Text leaves are answered for the rows as this transaction reads them (a row changed meanwhile fails it with 40001).
            let select = try select.answering(batch.entity, condition: batch.condition, on: connection)
            let (matching, bindings) = (SQLFragment(sql: "DELETE") + (try select.from(batch.entity, condition: batch.condition))
                + SQLFragment(sql: " RETURNING \(returned)")).render(in: select.writer.dialect)
            // Binary: the keys are read without parsing text.
            let deleted = try run(batch.entity, matching, bindings, binaryResults: true)
            // Recorded in key order, as SQLite reads them (each key read once, not once per comparison).
            let keys = (0..<deleted.count).map { deleted.int64(row: $0, column: 0) }
            let rows = keys.indices.sorted { keys[$0] < keys[$1] }
            let sortedKeys = rows.map { keys[$0] }
            if preserved.isEmpty {
                history?.recordDeletes(batch.entity, rows: sortedKeys)
            } else {
                for row in rows {
                    history?.recordDelete(batch.entity, row: keys[row],
                                          preserved: preserved.indices.map { deleted.storedValue(row: row, column: Int32($0 + 1)) })
                }
            }
            result.batchDeletedKeys.append(sortedKeys)
        }
        let updates = changes.updates.sorted(by: { ($0.entity.name, $0.primaryKey) < ($1.entity.name, $1.primaryKey) })
            .filter { !$0.columns.isEmpty || !$0.savedForeignKeys.isEmpty }
        try writeUpdates(updates, changes.updateColumns, into: &result, conflicts: &conflicts)
        if !conflicts.isEmpty { throw StrataError.mergeConflict(conflicts) }
        try writeInserts(changes, into: &result)
        result.upsertedVersions = upsertedVersions
        let foreignKeys = changes.resolvedForeignKeyUpdates(insertedKeys: result.insertedKeys)
        try pipeline(foreignKeys.count, entity: { foreignKeys[$0].entity }) { index in
            let update = foreignKeys[index]
            return .init("UPDATE \(table(update.entity)) SET \(quote(update.column)) = $1 WHERE \(primaryKey) = $2",
                         [update.target, .integer(update.row)])
        } result: { index, _ in
            let update = foreignKeys[index]
            if update.isStoredRow { history?.noteRelationshipChange(update.entity, row: update.row, name: update.column) }
        }
        for (joins, inserting) in [(StoreChanges.resolved(changes.joinDeletes, insertedKeys: result.insertedKeys), false),
                                   (StoreChanges.resolved(changes.joinInserts, insertedKeys: result.insertedKeys), true)] {
            try pipeline(joins.count, entity: { joins[$0].change.entity }) { index in
                let join = joins[index]
                let (owner, target) = (quote(join.change.ownerColumn), quote(join.change.targetColumn))
                let sql = inserting
                    ? "INSERT INTO \(quote(join.change.table)) (\(owner), \(target)) VALUES ($1, $2) ON CONFLICT DO NOTHING"
                    : "DELETE FROM \(quote(join.change.table)) WHERE \(owner) = $1 AND \(target) = $2"
                return .init(sql, [.integer(join.owner), .integer(join.target)])
            } result: { index, _ in
                let join = joins[index]
                if case .stored = join.change.owner { history?.noteRelationshipChange(join.change.entity, row: join.owner, name: join.change.relationship) }
            }
        }
        return result
    }

    /// Deletes each row whose version is still the one its model read, the statements pipelined; a row that
    /// changed goes to the merge policy (``deleteConflict(_:)``).
    private mutating func writeDeletes(_ deletes: [StoreChanges.Delete], conflicts: inout [MergeConflict]) throws {
        try pipeline(deletes.count, entity: { deletes[$0].entity }) { index in
            // The preserved values come back from the DELETE itself, for the tombstone.
            let delete = deletes[index]
            let returned = ([primaryKey] + delete.entity.preservedPropertyIndexes.map { column(delete.entity, $0) }).joined(separator: ", ")
            return .init("DELETE FROM \(table(delete.entity)) WHERE \(primaryKey) = $1 AND \(version) = $2 RETURNING \(returned)",
                         [.integer(delete.primaryKey), .integer(delete.version)])
        } result: { index, deleted in
            let delete = deletes[index]
            if deleted.count > 0 {
                history?.recordDelete(delete.entity, row: delete.primaryKey,
                                      preserved: delete.entity.preservedPropertyIndexes.indices.map { deleted.storedValue(row: 0, column: Int32($0 + 1)) })
            } else if let conflict = try deleteConflict(delete) {
                conflicts.append(conflict)
            }
        }
    }

    /// Writes each update's changed columns where the row's version is still the one its model read, the statements
    /// pipelined; a row that changed goes to the merge policy (``resolveConflict(_:columns:into:conflicts:)``).
    private mutating func writeUpdates(_ updates: [StoreChanges.Update], _ updateColumns: [StoreChanges.UpdateColumn],
                                       into result: inout StoreSaveResult, conflicts: inout [MergeConflict]) throws {
        try pipeline(updates.count, entity: { updates[$0].entity }) { index in
            // A relationship-only change (a foreign key, written later) still checks and bumps the row's version.
            let update = updates[index]
            let columns = updateColumns[update.columns]
            let assignments = (columns.enumerated().map { "\(column(update.entity, $1.index)) = $\($0 + 1)" } + [bump]).joined(separator: ", ")
            return .init("UPDATE \(table(update.entity)) SET \(assignments) WHERE \(primaryKey) = $\(columns.count + 1) AND \(version) = $\(columns.count + 2)",
                         columns.map(\.value) + [.integer(update.primaryKey), .integer(update.version)])
        } result: { index, updated in
            let update = updates[index]
            let columns = updateColumns[update.columns]
            if updated.affectedRows == 0 {
                let written = try resolveConflict(update, columns: columns, into: &result, conflicts: &conflicts)
                if !written.isEmpty { history?.record(.update, update.entity, row: update.primaryKey, attributes: update.entity.historyAttributeNames(written)) }
            } else if !columns.isEmpty {
                // A relationship-only update (version bump) is recorded with its foreign-key change.
                history?.record(.update, update.entity, row: update.primaryKey, attributes: update.entity.historyAttributeNames(columns.map(\.index)))
            }
        }
    }

    /// Runs one statement, reporting a unique violation as the constraint's properties.
    @discardableResult
    func run(_ entity: Schema.Entity, _ sql: String, _ bindings: [StoredValue], binaryResults: Bool = false) throws -> PostgresResult {
        do {
            return try connection.preparedQuery(sql, bindings, binaryResults: binaryResults)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw uniqueViolation(error, among: CollectionOfOne(entity))
        }
    }

    /// Runs `count` statements pipelined (``PostgresConnection/pipeline(_:statement:result:)``), reporting a unique
    /// violation as the constraint's properties of the statement's entity (`entity` at its index).
    func pipeline(_ count: Int, entity: (Int) -> Schema.Entity, statement: (Int) -> PostgresConnection.PipelinedStatement,
                  result: (Int, PostgresResult) throws -> Void) throws {
        do {
            try connection.pipeline(count, statement: statement, result: result)
        } catch let error as PostgresError where error.isUniqueViolation {
            throw uniqueViolation(error, among: (0..<count).lazy.map(entity))
        }
    }

    /// The error a unique violation of one of `entities`' constraints is reported as: the entity and the
    /// properties of the constraint PostgreSQL names (the first entity and no properties when it names none of theirs).
    private func uniqueViolation(_ error: PostgresError, among entities: some Sequence<Schema.Entity>) -> StrataError {
        var first: Schema.Entity?
        for entity in entities {
            first = first ?? entity
            if let name = error.constraint,
               let position = entity.uniquenessConstraints.indices.first(where: { PostgresTableDefinition.uniqueConstraintName(entity.name, $0) == name }) {
                return StrataError.uniqueConstraintViolation(entity: entity.name, properties: entity.uniquenessConstraints[position])
            }
        }
        return StrataError.uniqueConstraintViolation(entity: first?.name ?? "", properties: [])
    }

    var primaryKey: String { quote(SelectStatement.primaryKeyColumn) }
    var version: String { quote(SelectStatement.versionColumn) }
    /// The assignment every update of a row's attributes makes: its version moves on.
    var bump: String { "\(version) = \(version) + 1" }
    func table(_ entity: Schema.Entity) -> String { quote(entity.name) }
    func column(_ entity: Schema.Entity, _ index: Int) -> String { quote(entity.properties[index].name) }
    func quote(_ identifier: String) -> String { select.writer.dialect.quote(identifier: identifier) }
}
