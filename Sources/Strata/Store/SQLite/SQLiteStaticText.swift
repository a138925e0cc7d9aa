import CSQLite

/// Text that lives as long as the process, which SQLite binds without copying it (`SQLITE_STATIC`): the program
/// and process names every save's history transaction row records.
///
/// Declare each as a `static let`; its bytes are allocated once and never freed.
struct SQLiteStaticText: @unchecked Sendable {
    // Unchecked: the bytes are written once, before the value is shared, and never changed or freed.
    /// The text's UTF-8 bytes, without a terminator.
    private let bytes: UnsafeMutableBufferPointer<CChar>

    /// Keeps a copy of `text` for the process's lifetime.
    init(_ text: String) {
        let utf8 = Array(text.utf8)
        // One byte at least, so an empty text has a real pointer and binds as empty text rather than NULL.
        bytes = UnsafeMutableBufferPointer<CChar>.allocate(capacity: max(utf8.count, 1))
        for (offset, byte) in utf8.enumerated() { bytes[offset] = CChar(bitPattern: byte) }
        count = utf8.count
    }

    /// The number of bytes of text.
    private let count: Int

    /// Binds the text to `handle`'s parameter `index`.
    func bind(to handle: OpaquePointer, at index: Int32) -> Int32 {
        sqlite3_bind_text64(handle, index, bytes.baseAddress, sqlite3_uint64(count), nil, UInt8(SQLITE_UTF8))
    }
}

extension SQLiteStatement {
    /// Binds `text` to the parameter at a 1-based index without copying it.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range.
    func bind(_ text: SQLiteStaticText, at index: Int32) throws(SQLiteError) {
        guard let handle else { throw .finalized(sql: sql) }
        hasBindings = true
        let result = text.bind(to: handle, at: index)
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }
}

extension SQLiteStatement {
    /// Binds `text` to the parameter at a 1-based index without copying it, and runs `body`, which steps the
    /// statement, while the text's bytes stay where they are; the statement is then reset (rewound, every binding
    /// cleared), so SQLite keeps no pointer to the bytes after the call. Bound with `SQLITE_TRANSIENT` instead,
    /// SQLite allocates a copy of the text, and frees it when the binding is cleared.
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range, or what `body` throws.
    func withText<Result>(_ text: String, boundAt index: Int32, _ body: () throws -> Result) throws -> Result {
        guard let handle else { throw SQLiteError.finalized(sql: sql) }
        var text = text
        return try text.withUTF8 { bytes in
            defer { reset() }
            hasBindings = true
            let result = bytes.withMemoryRebound(to: CChar.self) { characters in
                // A nil pointer would bind NULL: empty text is bound from a literal.
                guard let base = characters.baseAddress, !characters.isEmpty else {
                    return sqlite3_bind_text(handle, index, "", 0, nil)
                }
                return sqlite3_bind_text64(
                    handle, index, base, sqlite3_uint64(characters.count), nil, UInt8(SQLITE_UTF8))
            }
            guard result == SQLITE_OK else {
                throw SQLiteError(resultCode: result, connection: sqlite3_db_handle(handle), sql: sql)
            }
            return try body()
        }
    }
}
