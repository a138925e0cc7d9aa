import Strata

extension PostgresStore {
    /// How many times a save runs when it loses a serialization race or a deadlock (SQLSTATE `40001`/`40P01`).
    static let saveAttempts = 3

    /// Writes `changes` in one transaction, as SQLite's store does: deletes, batch deletes, updates (each checked
    /// against the version the model read, in the statement that writes), inserts (upserts under
    /// `.mergeByPropertyObjectTrump`), then foreign keys and join rows. A transaction that loses a serialization
    /// race or a deadlock, or meets a prepared statement another instance's migration made stale, is run again, at
    /// most three times.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`,
    ///   `StrataError.mergeConflict` (under `.error`), or `StrataError.storeFailure`; nothing is written when it throws.
    package func save(_ changes: StoreChanges, mergePolicy: MergePolicy) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        return try withConnection("save", isRead: false) { connection in
            var attempt = 1
            while true {
                do {
                    return try connection.transaction {
                        var writer = PostgresSaveWriter(
                            connection: connection, mergePolicy: mergePolicy, storeIdentifier: identifier, select: PostgresSelect(writer: writer))
                        // The history is recorded in the save's transaction, so it commits or rolls back with the data.
                        writer.history = try PostgresHistoryRecorder(connection: connection, author: changes.author)
                        let result = try writer.write(changes)
                        try writer.history?.flush()
                        if let transaction = writer.history?.transaction, configuration.historyRetention.isDue(after: transaction) {
                            try pruneHistory(connection)
                        }
                        if let transaction = writer.history?.transaction { try announceCommit(of: transaction, on: connection) }
                        return result
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
    private(set) var upsertedVersions: [Int: Int64] = [:]
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
        for delete in changes.deletes.sorted(by: { ($0.entity.name, $0.primaryKey) < ($1.entity.name, $1.primaryKey) }) {
            // The preserved values come back from the DELETE itself, for the tombstone.
            let preserved = delete.entity.preservedPropertyIndexes
            let deleted = try run(delete.entity, "DELETE FROM \(table(delete.entity)) WHERE \(primaryKey) = $1 AND \(version) = $2 "
                                      + "RETURNING \(([primaryKey] + preserved.map { column(delete.entity, $0) }).joined(separator: ", "))",
                                  [.integer(delete.primaryKey), .integer(delete.version)])
            if deleted.count > 0 {
                history?.recordDelete(delete.entity, row: delete.primaryKey,
                                      preserved: preserved.indices.map { deleted.storedValue(row: 0, column: Int32($0 + 1)) })
            } else if let conflict = try deleteConflict(delete) {
                conflicts.append(conflict)
            }
        }
        for batch in changes.batchDeletes {
            let preserved = batch.entity.preservedPropertyIndexes
            let returned = ([primaryKey] + preserved.map { column(batch.entity, $0) }).joined(separator: ", ")
            // Text leaves are answered for the rows as this transaction reads them (a row changed meanwhile fails it with 40001).
            let select = try select.answering(batch.entity, condition: batch.condition, on: connection)
            let (matching, bindings) = (SQLFragment(sql: "DELETE") + (try select.from(batch.entity, condition: batch.condition))
                + SQLFragment(sql: " RETURNING \(returned)")).render(in: select.writer.dialect)
            let deleted = try run(batch.entity, matching, bindings)
            // Recorded in key order, as SQLite reads them.
            let rows = (0..<deleted.count).sorted { deleted.int64(row: $0, column: 0) < deleted.int64(row: $1, column: 0) }
            for row in rows {
                history?.recordDelete(batch.entity, row: deleted.int64(row: row, column: 0),
                                      preserved: preserved.indices.map { deleted.storedValue(row: row, column: Int32($0 + 1)) })
            }
            result.batchDeletedKeys.append(rows.map { deleted.int64(row: $0, column: 0) })
        }
        for update in changes.updates.sorted(by: { ($0.entity.name, $0.primaryKey) < ($1.entity.name, $1.primaryKey) })
        where !update.columns.isEmpty || !update.savedForeignKeys.isEmpty {
            // A relationship-only change (a foreign key, written below) still checks and bumps the row's version.
            let columns = changes.updateColumns[update.columns]
            let assignments = (columns.enumerated().map { "\(column(update.entity, $1.index)) = $\($0 + 1)" } + [bump]).joined(separator: ", ")
            let updated = try run(
                update.entity,
                "UPDATE \(table(update.entity)) SET \(assignments) WHERE \(primaryKey) = $\(columns.count + 1) AND \(version) = $\(columns.count + 2)",
                columns.map(\.value) + [.integer(update.primaryKey), .integer(update.version)])
            if updated.affectedRows == 0 {
                let written = try resolveConflict(update, columns: columns, into: &result, conflicts: &conflicts)
                if !written.isEmpty { history?.record(.update, update.entity, row: update.primaryKey, attributes: update.entity.historyAttributeNames(written)) }
            } else if !columns.isEmpty {
                // A relationship-only update (version bump) is recorded with its foreign-key change below.
                history?.record(.update, update.entity, row: update.primaryKey, attributes: update.entity.historyAttributeNames(columns.map(\.index)))
            }
        }
        if !conflicts.isEmpty { throw StrataError.mergeConflict(conflicts) }
        let uniqueForeignKeys = changes.uniqueForeignKeys
        for (position, insert) in changes.inserts.enumerated() {
            let foreignKeys = uniqueForeignKeys[position].map { StoreChanges.resolved($0, insertedKeys: result.insertedKeys) } ?? [:]
            let key = try write(insert, position: position, foreignKeys: foreignKeys)
            result.insertedKeys.append(key)
            // An upsert changed a stored row: recorded as an update of every column it wrote.
            if upsertedVersions[position] != nil {
                history?.record(.update, insert.entity, row: key, attributes: insert.entity.historyAttributeNames(insert.entity.columnPropertyIndexes))
            } else {
                history?.record(.insert, insert.entity, row: key)
            }
        }
        result.upsertedVersions = upsertedVersions
        for update in changes.resolvedForeignKeyUpdates(insertedKeys: result.insertedKeys) {
            try run(update.entity, "UPDATE \(table(update.entity)) SET \(quote(update.column)) = $1 WHERE \(primaryKey) = $2",
                    [update.target, .integer(update.row)])
            if update.isStoredRow { history?.noteRelationshipChange(update.entity, row: update.row, name: update.column) }
        }
        for join in StoreChanges.resolved(changes.joinDeletes, insertedKeys: result.insertedKeys) {
            try connection.preparedQuery(
                "DELETE FROM \(quote(join.change.table)) WHERE \(quote(join.change.ownerColumn)) = $1 AND \(quote(join.change.targetColumn)) = $2",
                [.integer(join.owner), .integer(join.target)])
            if case .stored = join.change.owner { history?.noteRelationshipChange(join.change.entity, row: join.owner, name: join.change.relationship) }
        }
        for join in StoreChanges.resolved(changes.joinInserts, insertedKeys: result.insertedKeys) {
            let columns = "\(quote(join.change.ownerColumn)), \(quote(join.change.targetColumn))"
            try connection.preparedQuery(
                "INSERT INTO \(quote(join.change.table)) (\(columns)) VALUES ($1, $2) ON CONFLICT DO NOTHING", [.integer(join.owner), .integer(join.target)])
            if case .stored = join.change.owner { history?.noteRelationshipChange(join.change.entity, row: join.owner, name: join.change.relationship) }
        }
        return result
    }

    /// Writes one insert, or under `.mergeByPropertyObjectTrump` updates the row holding the same unique values:
    /// looked up first (NULL matching NULL, as on SQLite), and again when a concurrent transaction inserted it
    /// between the lookup and `INSERT … ON CONFLICT DO NOTHING`.
    private mutating func write(_ insert: StoreChanges.Insert, position: Int, foreignKeys: [Int: StoredValue]) throws -> Int64 {
        let entity = insert.entity
        let columns = entity.columnPropertyIndexes
        let values = columns.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
        let upserts = mergePolicy == .mergeByPropertyObjectTrump && !entity.uniquenessConstraints.isEmpty
        if upserts, let existing = try existingRow(entity, values: values) {
            return try overwrite(existing, entity: entity, values: values, position: position)
        }
        let names = columns.map { column(entity, $0) }.joined(separator: ", ")
        let placeholders = columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let body = columns.isEmpty ? "DEFAULT VALUES" : "(\(names)) VALUES (\(placeholders))"
        let inserted = try run(entity, "INSERT INTO \(table(entity)) \(body)\(upserts ? " ON CONFLICT DO NOTHING" : "") RETURNING \(primaryKey)", values)
        if inserted.count > 0 { return inserted.int64(row: 0, column: 0) }
        guard let existing = try existingRow(entity, values: values) else {
            throw StrataError.uniqueConstraintViolation(entity: entity.name, properties: entity.uniquenessConstraints.first ?? [])
        }
        return try overwrite(existing, entity: entity, values: values, position: position)
    }

    /// Writes every column of `existing` (an upsert), recording its new version.
    private mutating func overwrite(_ existing: Int64, entity: Schema.Entity, values: [StoredValue], position: Int) throws -> Int64 {
        let columns = entity.columnPropertyIndexes
        let assignments = (columns.enumerated().map { "\(column(entity, $1)) = $\($0 + 1)" } + [bump]).joined(separator: ", ")
        let updated = try run(entity, "UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = $\(columns.count + 1) RETURNING \(version)",
                              values + [.integer(existing)])
        if updated.count > 0 { upsertedVersions[position] = updated.int64(row: 0, column: 0) }
        return existing
    }

    /// The row holding the same values as `values` (by column position) for any uniqueness constraint.
    private func existingRow(_ entity: Schema.Entity, values: [StoredValue]) throws -> Int64? {
        let columns = entity.columnPropertyIndexes
        for constraint in entity.uniquenessConstraints {
            let properties = constraint.compactMap(entity.property(named:))
            guard !properties.isEmpty else { continue }
            var bindings: [StoredValue] = []
            let condition = properties.map { property -> String in
                let value = columns.firstIndex(of: property.index).map { values[$0] } ?? .null
                if case .null = value { return "\(column(entity, property.index)) IS NULL" }
                bindings.append(value)
                return "\(column(entity, property.index)) = $\(bindings.count)"
            }.joined(separator: " AND ")
            let rows = try run(entity, "SELECT \(primaryKey) FROM \(table(entity)) WHERE \(condition) LIMIT 1 FOR UPDATE", bindings)
            if rows.count > 0 { return rows.int64(row: 0, column: 0) }
        }
        return nil
    }

    /// Runs one statement, reporting a unique violation as the constraint's properties.
    @discardableResult
    func run(_ entity: Schema.Entity, _ sql: String, _ bindings: [StoredValue]) throws -> PostgresResult {
        do {
            return try connection.preparedQuery(sql, bindings)
        } catch let error as PostgresError where error.isUniqueViolation {
            let position = error.constraint.flatMap { name in
                entity.uniquenessConstraints.indices.first { PostgresTableDefinition.uniqueConstraintName(entity.name, $0) == name }
            }
            throw StrataError.uniqueConstraintViolation(entity: entity.name, properties: position.map { entity.uniquenessConstraints[$0] } ?? [])
        }
    }

    var primaryKey: String { quote(SelectStatement.primaryKeyColumn) }
    var version: String { quote(SelectStatement.versionColumn) }
    /// The assignment every update of a row's attributes makes: its version moves on.
    var bump: String { "\(version) = \(version) + 1" }
    func table(_ entity: Schema.Entity) -> String { quote(entity.name) }
    func column(_ entity: Schema.Entity, _ index: Int) -> String { quote(entity.properties[index].name) }
    func quote(_ identifier: String) -> String { select.writer.dialect.quote(identifier: identifier) }
}
