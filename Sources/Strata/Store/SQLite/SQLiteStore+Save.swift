import Foundation

extension SQLiteStore {
    /// Writes `changes` in one transaction: deletes first (so a deleted unique value can be reused), then
    /// updates, then inserts. Under `.mergeByPropertyObjectTrump` an insert whose unique value exists updates
    /// that row instead (an upsert). Each update and delete applies only while the row has the version the model
    /// read (in the same statement); a row saved elsewhere meanwhile is resolved by `mergePolicy`.
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`,
    ///   `StrataError.mergeConflict` (under `.error`), or `StrataError.storeFailure`; nothing is written when it throws.
    package func save(_ changes: StoreChanges, mergePolicy: MergePolicy) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        return try withConnection { connection in
            // Noted once committed, under the connection's lock: a rolled-back identifier is used again.
            let (result, recorded) = try translatingErrors("save") {
                try connection.transaction {
                    try checkNotMigratedElsewhere(connection)
                    try checkFileInPlace(connection)
                    var writer = SaveWriter(connection: connection, dialect: dialect, mergePolicy: mergePolicy, storeIdentifier: identifier)
                    if recordsHistory {
                        let relationships = !changes.foreignKeyUpdates.isEmpty || !changes.joinInserts.isEmpty || !changes.joinDeletes.isEmpty
                        writer.history = try HistoryRecorder(connection: connection, dialect: dialect, author: changes.author,
                                                             tracksRelationshipUpdates: relationships)
                    }
                    let result = try writer.write(changes)
                    // Retention is enforced every 64th transaction, in the save's own transaction.
                    if let transaction = writer.history?.transaction, historyRetention.isDue(after: transaction) {
                        try pruneHistory(connection)
                    }
                    return (result, writer.history?.transaction)
                }
            }
            if let recorded { ownTransactions.note(recorded) }
            return result
        }
    }
}

extension SQLiteStore {
    /// Refuses to write through a connection whose file was deleted, renamed or replaced since it opened: the
    /// save would go to a file no later open of the path sees.
    ///
    /// - Throws: `StrataError.storeFailure` saying the file was moved or replaced.
    func checkFileInPlace(_ connection: SQLiteConnection) throws {
        guard connection.fileHasMoved else { return }
        throw StrataError.storeFailure(
            operation: "save", reason: "the store file \(path ?? "") was deleted, moved or replaced while the container had it open; nothing was written (open a new container)")
    }
}

/// Writes one save's changes on a connection inside a transaction.
private struct SaveWriter {
    let connection: SQLiteConnection
    let dialect: SQLiteDialect
    let mergePolicy: MergePolicy
    let storeIdentifier: String
    private var insertStatements: [ObjectIdentifier: SQLiteStatement] = [:]
    private var updateStatements: [UpdateKey: SQLiteStatement] = [:]
    private var upsertedVersions: [Int: Int64] = [:]
    /// Records the save's history in its transaction; `nil` for a store without history tables.
    var history: HistoryRecorder?

    init(connection: SQLiteConnection, dialect: SQLiteDialect, mergePolicy: MergePolicy, storeIdentifier: String) {
        self.connection = connection
        self.storeIdentifier = storeIdentifier
        self.dialect = dialect
        self.mergePolicy = mergePolicy
    }

    mutating func write(_ changes: StoreChanges) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        // Updates and deletes go in row order: in the order a context happens to hold its models they would dirty
        // the table's pages at random, and a large save would spill and rewrite the same pages many times.
        var conflicts: [MergeConflict] = []
        for delete in Self.inRowOrder(changes.deletes) {
            let condition = "WHERE \(primaryKey) = ? AND \(version) = ?"
            let bindings: [StoredValue] = [.integer(delete.primaryKey), .integer(delete.version)]
            if history != nil, !delete.entity.preservedPropertyIndexes.isEmpty {
                // The preserved values come back from the DELETE itself, for the tombstone.
                let returned = try guarded(delete.entity) {
                    try connection.query("DELETE FROM \(table(delete.entity)) \(condition) RETURNING \(preservedColumns(delete.entity))", bindings)
                }
                if let values = returned.first {
                    try recordDelete(delete.entity, row: delete.primaryKey, tombstone: values)
                } else if let conflict = try deleteConflict(delete) {
                    conflicts.append(conflict)
                }
                continue
            }
            try run(delete.entity, "DELETE FROM \(table(delete.entity)) \(condition)", bindings)
            if connection.changes > 0 {
                try recordDelete(delete.entity, row: delete.primaryKey, tombstone: [])
            } else if let conflict = try deleteConflict(delete) {
                conflicts.append(conflict)
            }
        }
        for batch in changes.batchDeletes {
            // The rows' keys are read first, then the rows deleted with the same condition: inside the save's
            // transaction nothing changes in between, and SQLite runs this pair faster than `DELETE … RETURNING`,
            // which buffers every returned row (measured: 0.12 s against 0.19 s for 50,000 of 100,000 rows).
            var matching = SQLFragment(sql: " FROM ") + .identifier(batch.entity.name)
            if let condition = batch.condition {
                matching.append(sql: " WHERE ")
                matching.append(condition.sql)
            }
            // With history, the preserved values of the deleted rows are read with their keys, for the tombstones.
            let preserved = history == nil ? [] : batch.entity.preservedPropertyIndexes
            let selected = preserved.isEmpty ? primaryKey : "\(primaryKey), \(preservedColumns(batch.entity))"
            let (select, selectBindings) = (SQLFragment(sql: "SELECT \(selected)") + matching).render(in: dialect)
            let (delete, deleteBindings) = (SQLFragment(sql: "DELETE") + matching).render(in: dialect)
            var tombstones: [[StoredValue]] = []
            let keys = try guarded(batch.entity) {
                let statement = try connection.prepare(select)
                defer { statement.reset() }
                try statement.bind(selectBindings)
                var keys: [Int64] = []
                while try statement.step() {
                    keys.append(statement.int64(at: 0))
                    if !preserved.isEmpty { tombstones.append(preserved.indices.map { statement.storedValue(at: Int32($0 + 1)) }) }
                }
                return keys
            }
            result.batchDeletedKeys.append(keys)
            try run(batch.entity, delete, deleteBindings)
            if history != nil {
                for (offset, key) in keys.enumerated() {
                    try recordDelete(batch.entity, row: key, tombstone: offset < tombstones.count ? tombstones[offset] : [])
                }
            }
        }
        // Consecutive updates of the same columns (the usual case) reuse the last statement without a lookup.
        // The history's list of changed properties is built with the statement, so a run of updates shares it.
        var lastUpdate: (entity: Schema.Entity, columns: [Int], statement: SQLiteStatement, names: String)?
        for update in Self.inRowOrder(changes.updates) where !update.columns.isEmpty || !update.savedForeignKeys.isEmpty {
            let columns = changes.updateColumns[update.columns]
            let statement: SQLiteStatement
            let names: String
            if let lastUpdate, lastUpdate.entity === update.entity, lastUpdate.columns.elementsEqual(columns.lazy.map(\.index)) {
                statement = lastUpdate.statement
                names = lastUpdate.names
            } else {
                let indexes = columns.map(\.index)
                statement = try updateStatement(for: update.entity, columns: indexes)
                names = history == nil ? "" : update.entity.historyAttributeNames(indexes)
                lastUpdate = (update.entity, indexes, statement, names)
            }
            try guarded(update.entity) {
                defer { statement.reset() }
                for (offset, column) in columns.enumerated() { try statement.bind(column.value, at: Int32(offset + 1)) }
                try statement.bind(.integer(update.primaryKey), at: Int32(columns.count + 1))
                try statement.bind(.integer(update.version), at: Int32(columns.count + 2))
                _ = try statement.step()
            }
            // The version moved (or the row is gone) since the model was read: checked in the statement that
            // writes, so no other writer can come in between.
            if connection.changes == 0 {
                let written = try resolveConflict(update, columns: columns, into: &result, conflicts: &conflicts)
                if !written.isEmpty { try history?.record(.update, update.entity, row: update.primaryKey, attributes: update.entity.historyAttributeNames(written)) }
            } else if !columns.isEmpty {
                // A relationship-only update (version bump) is recorded with its foreign-key change below.
                try history?.record(.update, update.entity, row: update.primaryKey, attributes: names)
            }
        }
        // Every conflict is listed before the save fails; throwing rolls the whole transaction back.
        if !conflicts.isEmpty { throw StrataError.mergeConflict(conflicts) }
        let uniqueForeignKeys = changes.uniqueForeignKeys
        for (position, insert) in changes.inserts.enumerated() {
            let foreignKeys = uniqueForeignKeys[position].map { StoreChanges.resolved($0, insertedKeys: result.insertedKeys) } ?? [:]
            let key = try write(insert, position: position, foreignKeys: foreignKeys)
            result.insertedKeys.append(key)
            if history != nil {
                // An upsert changed a stored row: recorded as an update of every column it wrote.
                if upsertedVersions[position] != nil {
                    try history?.record(.update, insert.entity, row: key, attributes: insert.entity.historyAttributeNames(insert.entity.columnPropertyIndexes))
                } else {
                    try history?.record(.insert, insert.entity, row: key)
                }
            }
        }
        result.upsertedVersions = upsertedVersions
        for update in changes.resolvedForeignKeyUpdates(insertedKeys: result.insertedKeys) {
            try run(update.entity, "UPDATE \(table(update.entity)) SET \(dialect.quote(identifier: update.column)) = ? WHERE \(primaryKey) = ?",
                    [update.target, .integer(update.row)])
            if update.isStoredRow { history?.noteRelationshipChange(update.entity, row: update.row, name: update.column) }
        }
        for join in StoreChanges.resolved(changes.joinDeletes, insertedKeys: result.insertedKeys) {
            let change = join.change
            try connection.run(
                "DELETE FROM \(dialect.quote(identifier: change.table)) WHERE \(dialect.quote(identifier: change.ownerColumn)) = ? AND \(dialect.quote(identifier: change.targetColumn)) = ?",
                [.integer(join.owner), .integer(join.target)])
            if case .stored = change.owner { history?.noteRelationshipChange(change.entity, row: join.owner, name: change.relationship) }
        }
        for join in StoreChanges.resolved(changes.joinInserts, insertedKeys: result.insertedKeys) {
            let change = join.change
            try connection.run(
                "INSERT OR IGNORE INTO \(dialect.quote(identifier: change.table)) (\(dialect.quote(identifier: change.ownerColumn)), \(dialect.quote(identifier: change.targetColumn))) VALUES (?, ?)",
                [.integer(join.owner), .integer(join.target)])
            if case .stored = change.owner { history?.noteRelationshipChange(change.entity, row: join.owner, name: change.relationship) }
        }
        try history?.recordRelationshipChanges()
        return result
    }

    /// Writes one insert (or, under `.mergeByPropertyObjectTrump`, updates the row with the same unique values).
    /// `foreignKeys` are the values of foreign-key columns known before the row exists, by property index: they
    /// are written with the row, so a uniqueness constraint over a to-one relationship sees them.
    private mutating func write(_ insert: StoreChanges.Insert, position: Int, foreignKeys: [Int: StoredValue]) throws -> Int64 {
        let entity = insert.entity
        let columns = entity.columnPropertyIndexes
        if mergePolicy == .mergeByPropertyObjectTrump, !entity.uniquenessConstraints.isEmpty,
           let existing = try existingRow(matching: insert, foreignKeys: foreignKeys) {
            let values = columns.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
            let assignments = (columns.map { "\(column(entity, $0)) = ?" } + [bump]).joined(separator: ", ")
            // The row's new version comes back from the UPDATE itself, so an upsert reads nothing more.
            let returned = try guarded(entity) {
                try connection.query("UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = ? RETURNING \(version)",
                                     values + [.integer(existing)])
            }
            if case .integer(let stored)? = returned.first?.first { upsertedVersions[position] = stored }
            return existing
        }
        let statement = try insertStatement(for: entity)
        try guarded(entity) {
            defer { statement.reset() }
            // Bound straight from the model's values: no array of the row's values is built per insert.
            try insert.values.withUnsafeBufferPointer { values in
                for (offset, index) in columns.enumerated() {
                    // Passed straight from the buffer, so the value is borrowed rather than copied.
                    if !foreignKeys.isEmpty, let foreignKey = foreignKeys[index] {
                        try statement.bind(foreignKey, at: Int32(offset + 1))
                    } else if index < values.count {
                        try statement.bind(values[index], at: Int32(offset + 1))
                    } else {
                        try statement.bind(.null, at: Int32(offset + 1))
                    }
                }
            }
            _ = try statement.step()
        }
        return connection.lastInsertRowID
    }

    /// The changes grouped by entity, each entity's in primary-key order. Sorts plain positions, not the changes,
    /// so no change is copied while sorting and the comparison is inlined.
    private static func inRowOrder<Change: RowChange>(_ changes: [Change]) -> [Change] {
        var order = changes.indices.map { position in
            let change = changes[position]
            return RowPosition(entity: UInt(bitPattern: ObjectIdentifier(change.entity)), row: change.primaryKey, position: position)
        }
        order.sort()
        return order.map { changes[$0.position] }
    }

    /// Where a change goes in row order: by entity, then primary key, then the change's position.
    private struct RowPosition: Comparable {
        let entity: UInt
        let row: Int64
        let position: Int

        static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
            (lhs.entity, lhs.row, lhs.position) < (rhs.entity, rhs.row, rhs.position)
        }
    }

    /// The UPDATE of some of an entity's columns, prepared once per save for each set of columns.
    private mutating func updateStatement(for entity: Schema.Entity, columns: [Int]) throws -> SQLiteStatement {
        let key = UpdateKey(entity: ObjectIdentifier(entity), columns: columns)
        if let statement = updateStatements[key] { return statement }
        let assignments = (columns.map { "\(column(entity, $0)) = ?" } + [bump]).joined(separator: ", ")
        let statement = try connection.prepare("UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = ? AND \(version) = ?")
        updateStatements[key] = statement
        return statement
    }

    private struct UpdateKey: Hashable {
        let entity: ObjectIdentifier
        let columns: [Int]
    }

    /// The INSERT of an entity's columns, prepared once per save.
    private mutating func insertStatement(for entity: Schema.Entity) throws -> SQLiteStatement {
        if let statement = insertStatements[ObjectIdentifier(entity)] { return statement }
        let columns = entity.columnPropertyIndexes
        let names = columns.map { column(entity, $0) }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let sql = columns.isEmpty
            ? "INSERT INTO \(table(entity)) DEFAULT VALUES"
            : "INSERT INTO \(table(entity)) (\(names)) VALUES (\(placeholders))"
        let statement = try connection.prepare(sql)
        insertStatements[ObjectIdentifier(entity)] = statement
        return statement
    }

    /// The row holding the same value as `insert` for any of the entity's uniqueness constraints.
    private func existingRow(matching insert: StoreChanges.Insert, foreignKeys: [Int: StoredValue]) throws -> Int64? {
        let entity = insert.entity
        for constraint in entity.uniquenessConstraints {
            let properties = constraint.compactMap(entity.property(named:))
            guard !properties.isEmpty else { continue }
            let condition = properties.map { "\(column(entity, $0.index)) IS ?" }.joined(separator: " AND ")
            let bindings = properties.map {
                foreignKeys[$0.index] ?? ($0.index < insert.values.count ? insert.values[$0.index] : .null)
            }
            let rows = try guarded(entity) {
                try connection.query("SELECT \(primaryKey) FROM \(table(entity)) WHERE \(condition) LIMIT 1", bindings)
            }
            if case .integer(let key)? = rows.first?.first { return key }
        }
        return nil
    }

    fileprivate func run(_ entity: Schema.Entity, _ sql: String, _ bindings: [StoredValue]) throws {
        try guarded(entity) {
            let statement = try connection.prepare(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            _ = try statement.step()
        }
    }

    /// Runs SQLite work, reporting a unique-constraint failure as the entity's properties.
    fileprivate func guarded<T>(_ entity: Schema.Entity, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isUniqueConstraintViolation {
            throw StrataError.uniqueConstraintViolation(entity: entity.name, properties: Self.columns(in: error.message, entity: entity))
        }
    }

    /// The column names in SQLite's "UNIQUE constraint failed: Book.isbn, Book.title" message.
    private static func columns(in message: String, entity: Schema.Entity) -> [String] {
        guard let colon = message.firstIndex(of: ":") else { return [] }
        return message[message.index(after: colon)...].split(separator: ",").map { qualified in
            let name = qualified.trimmingCharacters(in: .whitespaces)
            return name.hasPrefix(entity.name + ".") ? String(name.dropFirst(entity.name.count + 1)) : name
        }
    }

    fileprivate var primaryKey: String { dialect.quote(identifier: SelectStatement.primaryKeyColumn) }
    fileprivate var version: String { dialect.quote(identifier: SelectStatement.versionColumn) }
    /// The assignment every update of a row's attributes makes: its version moves on.
    fileprivate var bump: String { "\(version) = \(version) + 1" }
    fileprivate func table(_ entity: Schema.Entity) -> String { dialect.quote(identifier: entity.name) }
    /// The entity's `.preserveValueOnDeletion` columns, comma-separated.
    fileprivate func preservedColumns(_ entity: Schema.Entity) -> String {
        entity.preservedPropertyIndexes.map { column(entity, $0) }.joined(separator: ", ")
    }

    /// Records a deleted row in the history, with its preserved values.
    fileprivate mutating func recordDelete(_ entity: Schema.Entity, row: Int64, tombstone: [StoredValue]) throws {
        guard let position = try history?.record(.delete, entity, row: row) else { return }
        try history?.recordTombstone(entity, position: position, values: tombstone)
    }
    fileprivate func column(_ entity: Schema.Entity, _ index: Int) -> String { dialect.quote(identifier: entity.properties[index].name) }
}

/// Optimistic locking: what a save does with a row another writer saved after the model was read.
extension SaveWriter {
    /// The row as stored now: its version and its values by property index; `nil` when it was deleted.
    fileprivate func storedRow(_ entity: Schema.Entity, _ key: Int64) throws -> (version: Int64, values: [StoredValue])? {
        let columns = entity.columnPropertyIndexes
        let names = ([version] + columns.map { column(entity, $0) }).joined(separator: ", ")
        guard let row = try connection.query("SELECT \(names) FROM \(table(entity)) WHERE \(primaryKey) = ?", [.integer(key)]).first,
              case .integer(let stored)? = row.first else { return nil }
        var values = [StoredValue](repeating: .null, count: entity.properties.count)
        for (offset, index) in columns.enumerated() where offset + 1 < row.count { values[index] = row[offset + 1] }
        return (stored, values)
    }

    /// Under `.error` the conflict of a delete whose row changed since it was read; under every other policy the
    /// row is deleted anyway. A row already deleted elsewhere is no conflict: it is gone as the save asked.
    fileprivate mutating func deleteConflict(_ delete: StoreChanges.Delete) throws -> MergeConflict? {
        guard let stored = try storedRow(delete.entity, delete.primaryKey) else { return nil }
        guard mergePolicy == .error else {
            try run(delete.entity, "DELETE FROM \(table(delete.entity)) WHERE \(primaryKey) = ?", [.integer(delete.primaryKey)])
            try recordDelete(delete.entity, row: delete.primaryKey, tombstone: delete.entity.preservedPropertyIndexes.map { stored.values[$0] })
            return nil
        }
        return conflict(delete.entity, delete.primaryKey, isDeletion: true, expected: delete.version, stored: stored, conflicting: [])
    }

    /// Resolves an update whose row changed (or went) since the model was read, as the merge policy says.
    /// - Returns: the indexes of the properties written.
    fileprivate func resolveConflict(_ update: StoreChanges.Update, columns: ArraySlice<StoreChanges.UpdateColumn>,
                                     into result: inout StoreSaveResult, conflicts: inout [MergeConflict]) throws -> [Int] {
        let entity = update.entity
        guard let stored = try storedRow(entity, update.primaryKey) else {
            // Deleted elsewhere: it stays deleted (nothing to merge into), unless the policy is to report it.
            if mergePolicy == .error {
                conflicts.append(conflict(entity, update.primaryKey, isDeletion: false, expected: update.version, stored: nil, conflicting: []))
            }
            return []
        }
        guard let written = mergePolicy.writtenColumns(update, columns, stored: stored.values) else {
            conflicts.append(conflict(entity, update.primaryKey, isDeletion: false, expected: update.version, stored: stored,
                                      conflicting: update.propertiesChangedElsewhere(columns, stored: stored.values)))
            return []
        }
        let bumpsForRelationships = mergePolicy.bumpsVersion(forRelationshipsOf: update)
        if !written.isEmpty || bumpsForRelationships {
            let assignments = (written.map { "\(column(entity, $0.index)) = ?" } + [bump]).joined(separator: ", ")
            try run(entity, "UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = ?", written.map(\.value) + [.integer(update.primaryKey)])
        }
        result.resolvedConflicts.append(StoreSaveResult.ResolvedConflict(
            entity: entity, primaryKey: update.primaryKey, storedValues: stored.values,
            kept: Set(written.map(\.index)), version: written.isEmpty && !bumpsForRelationships ? stored.version : stored.version + 1))
        return written.map(\.index)
    }

    private func conflict(_ entity: Schema.Entity, _ key: Int64, isDeletion: Bool, expected: Int64,
                          stored: (version: Int64, values: [StoredValue])?, conflicting: [Int]) -> MergeConflict {
        MergeConflict(entity, key, storeIdentifier: storeIdentifier, isDeletion: isDeletion, expected: expected, stored: stored,
                      conflicting: conflicting)
    }
}

/// A change to one stored row, which a save orders by row.
private protocol RowChange {
    var entity: Schema.Entity { get }
    var primaryKey: Int64 { get }
}

extension StoreChanges.Update: RowChange {}
extension StoreChanges.Delete: RowChange {}
