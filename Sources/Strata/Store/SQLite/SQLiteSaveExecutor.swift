import Foundation

/// Runs a save's statements on SQLite, one at a time, inside the save's transaction: each shape's statement is
/// compiled once per connection and found by the shape's identity (a run of one shape reuses the last statement
/// without a lookup), and an insert's or update's values are bound straight from the model rather than copied into
/// an array.
final class SQLiteSaveExecutor: SaveExecutor {
    let connection: SQLiteConnection
    let dialect: SQLiteDialect
    /// SQLite locks the whole database for a write transaction: no row lock is needed, or spelled.
    var rowLock: String { "" }
    /// The key of an inserted row is chosen here, above every key its table ever issued, and bound with the row
    /// (NULL where SQLite's next rowid is that key; SQLite alone would give a deleted row's key again). It is read
    /// back from the connection, without `RETURNING` (which buffers the row).
    var insertedKeys: InsertedKeys { .assigned }
    /// The keys this save issues; ``recordIssuedKeys()`` writes their marks before the save commits. Made at the
    /// save's first insert: a save without one (an editor's change) makes and frees none.
    private var keys: SQLiteKeyAllocator?
    /// The statements this save prepared before the last two, by their text's identity (the text kept, so no
    /// identity is reused); a save of one shape keeps its statement in `last` alone, and rows alternating between
    /// two shapes switch between `last` and `previous` without a lookup.
    private var prepared: [ObjectIdentifier: (sql: SaveSQL, statement: SQLiteStatement)] = [:]
    private var last: (sql: SaveSQL, statement: SQLiteStatement)?
    private var previous: (sql: SaveSQL, statement: SQLiteStatement)?

    init(connection: SQLiteConnection, dialect: SQLiteDialect) {
        self.connection = connection
        self.dialect = dialect
    }

    /// Records the largest key this save issued in each table, in the save's transaction.
    ///
    /// - Throws: `SQLiteError` when a mark can't be written.
    func recordIssuedKeys() throws {
        try keys?.record()
    }

    /// What one statement did: the connection's count of changed rows and last inserted key, and any rows returned.
    struct Result: SaveStatementResult {
        let affectedRows: Int
        let rows: [[StoredValue]]
        let insertedKey: Int64?

        var count: Int { rows.count }
        func int64(row: Int, column: Int32) -> Int64 {
            if case .integer(let value) = rows[row][Int(column)] { return value }
            return 0
        }
        func storedValue(row: Int, column: Int32) -> StoredValue { rows[row][Int(column)] }
    }

    func run(_ count: Int, statement: (Int) -> SaveStatement, result: (Int, Result) throws -> Void) throws {
        for index in 0..<count {
            let next = statement(index)
            let outcome = try guarded(next.sql.entity) { try execute(next) }
            try result(index, outcome)
        }
    }

    private func execute(_ next: SaveStatement) throws -> Result {
        let statement = try self.statement(for: next.sql)
        defer { statement.reset() }
        var first: Int32 = 1
        if next.sql.assignsKey {
            try statement.bind(try insertKeys.key(for: next.sql.entity).map(StoredValue.integer) ?? .null, at: 1)
            first = 2
        }
        try next.bindings.forEachValue { offset, value in try statement.bind(value, at: Int32(offset) + first) }
        var rows: [[StoredValue]] = []
        if next.sql.returnsRows {
            while try statement.step() { rows.append(statement.row()) }
        } else {
            _ = try statement.step()
        }
        let changes = connection.changes
        if next.sql.assignsKey, changes > 0 { keys?.inserted(into: next.sql.entity) }
        return Result(affectedRows: changes, rows: rows, insertedKey: changes > 0 ? connection.lastInsertRowID : nil)
    }

    /// The save's key allocator, made at its first insert.
    private var insertKeys: SQLiteKeyAllocator {
        if let keys { return keys }
        let made = SQLiteKeyAllocator(connection: connection)
        keys = made
        return made
    }

    private func statement(for sql: SaveSQL) throws -> SQLiteStatement {
        if let last, last.sql === sql { return last.statement }
        if let previous, previous.sql === sql {
            (self.previous, last) = (last, previous)
            return previous.statement
        }
        let statement: SQLiteStatement
        if !prepared.isEmpty, let found = prepared[ObjectIdentifier(sql)] {
            statement = found.statement
        } else {
            statement = try connection.prepare(sql.text, ownedBy: sql)
        }
        if let previous { prepared[ObjectIdentifier(previous.sql)] = previous }
        (previous, last) = (last, (sql, statement))
        return statement
    }

    func deleteRows(_ rows: BatchDeleteRows, returning columns: [String]) throws -> SaveDeletedRows {
        let matching = try SelectStatement.sqlite.from(rows)
        // A cascade's rows (whose `WHERE` Strata spells) that return their keys alone note them as they are deleted.
        if columns.isEmpty, case .referring = rows {
            return try guarded(rows.entity) { try deleteNotingKeys(rows.entity, matching) }
        }
        // Otherwise the rows' keys and values are read first, then the rows deleted with the same condition: inside
        // the save's transaction nothing changes in between, and SQLite runs this pair faster than
        // `DELETE … RETURNING`, which buffers every returned row (measured: 0.12 s against 0.19 s for 50,000 of
        // 100,000 rows).
        let selected = SQLFragment.joined(
            ([StoreLayout.primaryKeyColumn] + columns).map(SQLFragment.identifier), separator: ", ")
        let (select, selectBindings) = ("SELECT \(selected)" + matching).render(in: dialect)
        let (delete, deleteBindings) = (SQLFragment(sql: "DELETE") + matching).render(in: dialect)
        return try guarded(rows.entity) {
            var deleted = SaveDeletedRows()
            let statement = try connection.prepare(select)
            do {
                defer { statement.reset() }
                try statement.bind(selectBindings)
                while try statement.step() {
                    deleted.keys.append(statement.int64(at: 0))
                    if !columns.isEmpty {
                        deleted.values.append(columns.indices.map { statement.storedValue(at: Int32($0 + 1)) })
                    }
                }
            }
            try connection.run(delete, deleteBindings)
            return deleted
        }
    }

    /// Deletes the rows `matching` (a `FROM` with a `WHERE`) selects, noting their keys with `strata_note_key` as
    /// the `DELETE` lists them: one statement, where a `SELECT` of the keys before it read the rows twice
    /// (``SQLiteKeyNotes/deletedKeys(_:of:on:)`` leaves out a key noted for a row a later term turned down).
    private func deleteNotingKeys(_ entity: Schema.Entity, _ matching: SQLFragment) throws -> SaveDeletedRows {
        let key = SQLFragment.identifier(StoreLayout.primaryKeyColumn)
        let (sql, bindings) = (SQLFragment(sql: "DELETE") + matching).render(in: dialect)
        let notesIndex = Int32(bindings.count + 1)
        let (noting, _) =
            (SQLFragment(sql: " AND \(SQLiteFunctions.noteKey)(?\(notesIndex), ") + key
            + SQLFragment(sql: ")")).render(in: dialect)
        let statement = try connection.prepare(sql + noting)
        let notes = SQLiteKeyNotes()
        do {
            defer { statement.reset() }
            for (offset, value) in bindings.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
            try statement.bind(notes, at: notesIndex)
            try statement.runToCompletion()
        }
        return SaveDeletedRows(
            keys: try notes.deletedKeys(connection.changes, of: entity.tableName, on: connection))
    }

    /// Runs SQLite work, reporting a unique-constraint failure as the entity's properties.
    private func guarded<T>(_ entity: Schema.Entity, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isUniqueConstraintViolation {
            throw StrataError.uniqueConstraintViolation(
                entity: entity.name, properties: Self.columns(in: error.message, entity: entity))
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
}
