import CSQLite

extension SQLiteStatement {
    /// The number of `?` parameters the statement has.
    package var parameterCount: Int32 {
        guard let handle else { return 0 }
        return sqlite3_bind_parameter_count(handle)
    }

    /// Binds one value to the parameter at a 1-based index.
    ///
    /// Text and blobs are copied by SQLite, so the value need not outlive the call. A
    /// `Double.nan` is stored by SQLite as `NULL`; callers decide whether to allow it.
    ///
    /// ```swift
    /// try statement.bind(.text("Dune"), at: 1)
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the index is out of range or the value is too big.
    // Always inlined: an insert binds every column of every row through it.
    @inline(__always)
    package func bind(_ value: StoredValue, at index: Int32) throws(SQLiteError) {
        guard let handle else { throw .finalized(sql: sql) }
        hasBindings = true
        let result: Int32
        switch value {
        case .null:
            result = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            result = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            result = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            result = Self.bindText(text, to: handle, at: index)
        case .blob(let bytes):
            result = Self.bindBlob(bytes, to: handle, at: index)
        }
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: sqlite3_db_handle(handle), sql: sql)
        }
    }

    /// Binds values to parameters 1, 2, … in order.
    ///
    /// - Throws: ``SQLiteError`` when the count differs from ``parameterCount`` or a bind fails.
    package func bind(_ values: [StoredValue]) throws(SQLiteError) {
        guard values.count == Int(parameterCount) else {
            throw SQLiteError(
                extendedCode: SQLITE_RANGE,
                message: "statement has \(parameterCount) parameters but \(values.count) values were bound",
                sql: sql
            )
        }
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1))
        }
    }

    private static func bindText(_ text: String, to handle: OpaquePointer, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { buffer in
            // A nil pointer would bind NULL, so empty text needs a real (empty) C string.
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, strata_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
                sqlite3_bind_text64(
                    handle, index, characters, sqlite3_uint64(buffer.count),
                    strata_sqlite_transient(), UInt8(SQLITE_UTF8)
                )
            }
        }
    }

    private static func bindBlob(_ bytes: [UInt8], to handle: OpaquePointer, at index: Int32) -> Int32 {
        // A nil pointer would bind NULL, so an empty blob is bound as a zero-length blob.
        guard !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
        return bytes.withUnsafeBytes { buffer in
            sqlite3_bind_blob64(
                handle, index, buffer.baseAddress, sqlite3_uint64(buffer.count), strata_sqlite_transient()
            )
        }
    }
}
