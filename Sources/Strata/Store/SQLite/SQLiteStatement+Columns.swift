import CSQLite

extension SQLiteStatement {
    /// The number of columns in each result row.
    package var columnCount: Int32 {
        guard let handle else { return 0 }
        return sqlite3_column_count(handle)
    }

    /// The name of a result column (its `AS` alias when it has one); 0-based.
    package func columnName(at index: Int32) -> String {
        guard let handle, let name = sqlite3_column_name(handle, index) else { return "" }
        return String(cString: name)
    }

    /// Whether the current row's column holds `NULL`; 0-based.
    package func isNull(at index: Int32) -> Bool {
        guard let handle else { return true }
        return sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Whether the current row's column holds an integer; 0-based.
    package func isInteger(at index: Int32) -> Bool {
        guard let handle else { return false }
        return sqlite3_column_type(handle, index) == SQLITE_INTEGER
    }

    /// The current row's column as an integer (SQLite converts other types); 0-based.
    package func int64(at index: Int32) -> Int64 {
        guard let handle else { return 0 }
        return sqlite3_column_int64(handle, index)
    }

    /// The current row's column as a floating-point number (SQLite converts other types); 0-based.
    package func double(at index: Int32) -> Double {
        guard let handle else { return 0 }
        return sqlite3_column_double(handle, index)
    }

    /// The current row's column as text (SQLite converts other types; `NULL` reads as `""`); 0-based.
    package func text(at index: Int32) -> String {
        guard let handle, let characters = sqlite3_column_text(handle, index) else { return "" }
        // Ask for the byte count after the text so SQLite reports the UTF-8 length.
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// The current row's column as bytes (`NULL` and empty blobs read as `[]`); 0-based.
    package func blob(at index: Int32) -> [UInt8] {
        guard let handle, let bytes = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The current row's column as the ``StoredValue`` matching its SQLite storage class; 0-based.
    package func storedValue(at index: Int32) -> StoredValue {
        guard let handle else { return .null }
        return Self.classifiedValue(handle, index).value
    }

    /// A column of the statement's current row as the ``StoredValue`` matching its SQLite storage class, with the
    /// storage classes it passes a property on (``StorageClasses/classes(of:)``, known here without a second look).
    @inline(__always)
    private static func classifiedValue(
        _ handle: OpaquePointer, _ index: Int32
    ) -> (
        value: StoredValue, classes: StorageClasses
    ) {
        // One `sqlite3_column_value` and then the `sqlite3_value_*` readers, rather than `sqlite3_column_type` and
        // `sqlite3_column_*`: each `sqlite3_column_*` call looks the column up and checks for an allocation
        // failure again (two or three times per value). The value is read before the statement moves on, on the
        // thread that owns the connection, which is what `sqlite3_column_value`'s unprotected value requires.
        guard let value = sqlite3_column_value(handle, index) else { return (.null, .null) }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER:
            let integer = sqlite3_value_int64(value)
            return (.integer(integer), StorageClasses.classes(ofInteger: integer))
        case SQLITE_FLOAT:
            return (.real(sqlite3_value_double(value)), .real)
        case SQLITE_TEXT:
            guard let characters = sqlite3_value_text(value) else { return (.text(""), .text) }
            // The byte count after the text, so SQLite reports the UTF-8 length.
            let count = Int(sqlite3_value_bytes(value))
            let text = String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
            return (.text(text), .text)
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value) else { return (.blob([]), .blob) }
            let count = Int(sqlite3_value_bytes(value))
            return (.blob(Array(UnsafeRawBufferPointer(start: bytes, count: count))), .blob)
        default:
            return (.null, .null)
        }
    }

    /// Reads columns 1… of the current row into `values`, column `offset + 1` at
    /// `values[columns.columns[offset].index]`, and tells whether every value passes its property on its storage
    /// classes, tested as each value is read: one call per row where a fetch would otherwise make one dynamic call
    /// per column.
    ///
    /// Each value is initialized over the slot's `NULL` (``StoreRow/readValues(_:into:version:)``'s requirement):
    /// replacing it would load and test the old value of every column of every row. The precondition is unreachable from user
    /// data and store files: `columns` are property indexes of the fetched entity, and every caller passes values
    /// made with one slot per property of that entity.
    package func readValues(
        _ columns: StoreRowColumns, into values: ValueSlots, version: inout Int64
    ) -> Bool {
        guard let handle else { return false }
        if columns.readsVersion { version = sqlite3_column_int64(handle, columns.versionColumn) }
        precondition(
            columns.requiredValueCount <= values.count,
            "Strata: a row of \(columns.requiredValueCount) values read into \(values.count)")
        return columns.columns.withUnsafeBufferPointer { columns in
            var admitsAll = true
            var column: Int32 = 1
            for entry in columns {
                let (value, classes) = Self.classifiedValue(handle, column)
                values.initialize(entry.index, to: value)
                admitsAll = entry.passing.admits(classes: classes) && admitsAll
                column &+= 1
            }
            return admitsAll
        }
    }

    /// Every column of the current row, in order.
    package func row() -> [StoredValue] {
        (0..<columnCount).map { storedValue(at: $0) }
    }
}
