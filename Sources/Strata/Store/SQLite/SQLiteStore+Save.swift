import Foundation

extension SQLiteStore {
    /// Writes `changes` in one transaction: deletes first (so a deleted unique value can be reused), then
    /// updates, then inserts. Under `.mergeByPropertyObjectTrump` an insert whose unique value exists updates
    /// that row instead (an upsert).
    ///
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.uniqueConstraintViolation`, or
    ///   `StrataError.storeFailure`; nothing is written when it throws.
    package func save(_ changes: StoreChanges, mergePolicy: MergePolicy) throws -> StoreSaveResult {
        guard !isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
        return try withConnection { connection in
            try translatingErrors("save") {
                try connection.transaction {
                    try checkNotMigratedElsewhere(connection)
                    var writer = SaveWriter(connection: connection, dialect: dialect, mergePolicy: mergePolicy)
                    return try writer.write(changes)
                }
            }
        }
    }
}

/// Writes one save's changes on a connection inside a transaction.
private struct SaveWriter {
    let connection: SQLiteConnection
    let dialect: SQLiteDialect
    let mergePolicy: MergePolicy
    private var insertStatements: [ObjectIdentifier: SQLiteStatement] = [:]
    private var updateStatements: [UpdateKey: SQLiteStatement] = [:]

    init(connection: SQLiteConnection, dialect: SQLiteDialect, mergePolicy: MergePolicy) {
        self.connection = connection
        self.dialect = dialect
        self.mergePolicy = mergePolicy
    }

    mutating func write(_ changes: StoreChanges) throws -> StoreSaveResult {
        var result = StoreSaveResult()
        // Updates and deletes go in row order: in the order a context happens to hold its models they would dirty
        // the table's pages at random, and a large save would spill and rewrite the same pages many times.
        for delete in Self.inRowOrder(changes.deletes) {
            try run(delete.entity, "DELETE FROM \(table(delete.entity)) WHERE \(primaryKey) = ?", [.integer(delete.primaryKey)])
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
            let (select, selectBindings) = (SQLFragment(sql: "SELECT \(primaryKey)") + matching).render(in: dialect)
            let (delete, deleteBindings) = (SQLFragment(sql: "DELETE") + matching).render(in: dialect)
            result.batchDeletedKeys.append(try guarded(batch.entity) {
                let statement = try connection.prepare(select)
                defer { statement.reset() }
                try statement.bind(selectBindings)
                var keys: [Int64] = []
                while try statement.step() { keys.append(statement.int64(at: 0)) }
                return keys
            })
            try run(batch.entity, delete, deleteBindings)
        }
        // Consecutive updates of the same columns (the usual case) reuse the last statement without a lookup.
        var lastUpdate: (entity: Schema.Entity, columns: [Int], statement: SQLiteStatement)?
        for update in Self.inRowOrder(changes.updates) where !update.columns.isEmpty {
            let columns = changes.updateColumns[update.columns]
            let statement: SQLiteStatement
            if let lastUpdate, lastUpdate.entity === update.entity, lastUpdate.columns.elementsEqual(columns.lazy.map(\.index)) {
                statement = lastUpdate.statement
            } else {
                let indexes = columns.map(\.index)
                statement = try updateStatement(for: update.entity, columns: indexes)
                lastUpdate = (update.entity, indexes, statement)
            }
            try guarded(update.entity) {
                defer { statement.reset() }
                for (offset, column) in columns.enumerated() { try statement.bind(column.value, at: Int32(offset + 1)) }
                try statement.bind(.integer(update.primaryKey), at: Int32(columns.count + 1))
                _ = try statement.step()
            }
        }
        let uniqueForeignKeys = Self.uniqueForeignKeys(of: changes)
        for (position, insert) in changes.inserts.enumerated() {
            let foreignKeys = uniqueForeignKeys[position].map { Self.resolved($0, insertedKeys: result.insertedKeys) } ?? [:]
            result.insertedKeys.append(try write(insert, foreignKeys: foreignKeys))
        }
        let keys = result.insertedKeys
        func key(_ reference: StoreChanges.RowReference) -> Int64? {
            switch reference {
            case .stored(let key): key
            case .inserted(let position): position < keys.count ? keys[position] : nil
            }
        }
        for update in changes.foreignKeyUpdates {
            guard let row = key(update.row) else { continue }
            let target: StoredValue = update.target.flatMap(key).map { .integer($0) } ?? .null
            try run(update.entity, "UPDATE \(table(update.entity)) SET \(dialect.quote(identifier: update.column)) = ? WHERE \(primaryKey) = ?",
                    [target, .integer(row)])
        }
        for change in changes.joinDeletes {
            guard let owner = key(change.owner), let target = key(change.target) else { continue }
            try connection.run(
                "DELETE FROM \(dialect.quote(identifier: change.table)) WHERE \(dialect.quote(identifier: change.ownerColumn)) = ? AND \(dialect.quote(identifier: change.targetColumn)) = ?",
                [.integer(owner), .integer(target)])
        }
        for change in changes.joinInserts {
            guard let owner = key(change.owner), let target = key(change.target) else { continue }
            try connection.run(
                "INSERT OR IGNORE INTO \(dialect.quote(identifier: change.table)) (\(dialect.quote(identifier: change.ownerColumn)), \(dialect.quote(identifier: change.targetColumn))) VALUES (?, ?)",
                [.integer(owner), .integer(target)])
        }
        return result
    }

    /// Writes one insert (or, under `.mergeByPropertyObjectTrump`, updates the row with the same unique values).
    /// `foreignKeys` are the values of foreign-key columns known before the row exists, by property index: they
    /// are written with the row, so a uniqueness constraint over a to-one relationship sees them.
    private mutating func write(_ insert: StoreChanges.Insert, foreignKeys: [Int: StoredValue]) throws -> Int64 {
        let entity = insert.entity
        let columns = entity.columnPropertyIndexes
        if mergePolicy == .mergeByPropertyObjectTrump, !entity.uniquenessConstraints.isEmpty,
           let existing = try existingRow(matching: insert, foreignKeys: foreignKeys) {
            let values = columns.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
            let assignments = columns.map { "\(column(entity, $0)) = ?" }.joined(separator: ", ")
            try run(entity, "UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = ?", values + [.integer(existing)])
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

    /// The foreign keys of inserted rows that a uniqueness constraint includes (`#Unique<Visit>([\.trip, \.date])`),
    /// by insert position, then property index: these are written with the row rather than after every insert.
    private static func uniqueForeignKeys(of changes: StoreChanges) -> [Int: [Int: StoreChanges.RowReference?]] {
        var found: [Int: [Int: StoreChanges.RowReference?]] = [:]
        for update in changes.foreignKeyUpdates {
            guard case .inserted(let position) = update.row,
                  update.entity.uniquenessConstraints.contains(where: { $0.contains(update.column) }),
                  let property = update.entity.property(named: update.column) else { continue }
            found[position, default: [:]][property.index] = .some(update.target)
        }
        return found
    }

    /// The values of `foreignKeys` known before the next insert: stored rows, rows inserted earlier in this save,
    /// and nil. A row inserted later gets its key from the foreign-key update after every insert.
    private static func resolved(_ foreignKeys: [Int: StoreChanges.RowReference?], insertedKeys: [Int64]) -> [Int: StoredValue] {
        var values: [Int: StoredValue] = [:]
        for (index, target) in foreignKeys {
            switch target {
            case nil: values[index] = .null
            case .stored(let key)?: values[index] = .integer(key)
            case .inserted(let position)? where position < insertedKeys.count: values[index] = .integer(insertedKeys[position])
            case .inserted?: continue
            }
        }
        return values
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
        let assignments = columns.map { "\(column(entity, $0)) = ?" }.joined(separator: ", ")
        let statement = try connection.prepare("UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = ?")
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

    private func run(_ entity: Schema.Entity, _ sql: String, _ bindings: [StoredValue]) throws {
        try guarded(entity) {
            let statement = try connection.prepare(sql)
            defer { statement.reset() }
            try statement.bind(bindings)
            _ = try statement.step()
        }
    }

    /// Runs SQLite work, reporting a unique-constraint failure as the entity's properties.
    private func guarded<T>(_ entity: Schema.Entity, _ body: () throws -> T) throws -> T {
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

    private var primaryKey: String { dialect.quote(identifier: SelectStatement.primaryKeyColumn) }
    private func table(_ entity: Schema.Entity) -> String { dialect.quote(identifier: entity.name) }
    private func column(_ entity: Schema.Entity, _ index: Int) -> String { dialect.quote(identifier: entity.properties[index].name) }
}

/// A change to one stored row, which a save orders by row.
private protocol RowChange {
    var entity: Schema.Entity { get }
    var primaryKey: Int64 { get }
}

extension StoreChanges.Update: RowChange {}
extension StoreChanges.Delete: RowChange {}
