import CSQLite

/// The keys `strata_note_key` noted while one statement ran (``SQLiteFunctions/noteKey``): a `DELETE` that names
/// its rows for the history lists their keys as SQLite finds them, instead of a `SELECT` of the same rows first.
final class SQLiteKeyNotes {
    /// The keys noted, in the order SQLite evaluated the function. Unchecked: only the function appends, while the
    /// statement runs, and the caller reads them once it has run (a checked access cost as much as the rest of a
    /// call).
    @exclusivity(unchecked) var keys: [Int64] = []

    /// The keys of the rows a `DELETE` of `table` noting its rows removed, `deleted` rows (the connection's
    /// ``SQLiteConnection/changes``): the keys noted when there are as many (each deleted row was noted once);
    /// otherwise, as SQLite may evaluate the noting term of a row before a term that turns the row down, the keys
    /// noted whose rows are gone, in ascending order.
    /// - Throws: ``SQLiteError`` when looking a row up fails.
    func deletedKeys(_ deleted: Int, of table: String, on connection: SQLiteConnection) throws(SQLiteError) -> [Int64] {
        guard keys.count != deleted else { return keys }
        let key = SQLFragment.identifier(StoreLayout.primaryKeyColumn)
        let (present, _) =
            (SQLFragment(sql: "SELECT 1 FROM ") + .identifier(table) + SQLFragment(sql: " WHERE ")
            + key + SQLFragment(sql: " = ?")).render(in: SQLiteDialect())
        let lookup = try connection.prepare(present)
        var gone: [Int64] = []
        for noted in Set(keys).sorted() {
            defer { lookup.reset() }
            try lookup.bind(.integer(noted), at: 1)
            if try !lookup.step() { gone.append(noted) }
        }
        return gone
    }
}

/// The type name SQLite's pointer binding checks an ``SQLiteKeyNotes`` argument against: text that lives as long
/// as the process, as `sqlite3_bind_pointer` requires.
private struct SQLiteKeyNotesPointerType: @unchecked Sendable {
    // Unchecked: the bytes are written once, before the value is shared, and never changed or freed.
    let name: UnsafePointer<CChar>

    init(_ text: String) {
        let utf8 = Array(text.utf8CString)
        let bytes = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
        bytes.initialize(from: utf8, count: utf8.count)
        name = UnsafePointer(bytes)
    }

    static let notes = SQLiteKeyNotesPointerType("strata_key_notes")
}

extension SQLiteFunctions {
    /// `strata_note_key(notes, key)`: appends `key` to `notes`, an ``SQLiteKeyNotes`` bound with
    /// ``SQLiteStatement/bind(_:at:)`` (SQL can't make one), and returns 1; without notes it returns 0. A term of a
    /// `DELETE`'s `WHERE`, it notes the rows the statement deletes; SQLite may evaluate it before other terms of
    /// the same row, so a caller checks the count of keys against the rows deleted.
    package static let noteKey = "strata_note_key"

    static func registerKeyNoteFunction(on handle: OpaquePointer) throws(SQLiteError) {
        // Not deterministic (it has an effect), and callable from a statement only, not from a view or a trigger.
        let flags = SQLITE_UTF8 | SQLITE_DIRECTONLY
        let result = sqlite3_create_function_v2(
            handle, noteKey, 2, flags, nil,
            { context, _, values in
                guard let values, let argument = values[0], let key = values[1],
                    let pointer = sqlite3_value_pointer(argument, SQLiteKeyNotesPointerType.notes.name)
                else { return sqlite3_result_int(context, 0) }
                // The caller holds the notes while the statement runs: no retain of its own.
                Unmanaged<SQLiteKeyNotes>.fromOpaque(pointer)._withUnsafeGuaranteedRef {
                    $0.keys.append(sqlite3_value_int64(key))
                }
                sqlite3_result_int(context, 1)
            }, nil, nil, nil)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: handle, sql: "function \(noteKey)")
        }
    }
}

extension SQLiteStatement {
    /// Binds `notes` to the parameter at a 1-based index, for `strata_note_key`; the caller keeps `notes` alive
    /// until the statement is reset.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    func bind(_ notes: SQLiteKeyNotes, at index: Int32) throws(SQLiteError) {
        guard let handle else { throw .finalized(sql: sql) }
        hasBindings = true
        let result = sqlite3_bind_pointer(
            handle, index, Unmanaged.passUnretained(notes).toOpaque(), SQLiteKeyNotesPointerType.notes.name, nil)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }
}
