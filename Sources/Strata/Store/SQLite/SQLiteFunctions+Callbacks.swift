import CSQLite
import Foundation

/// The arguments SQLite passes to a Strata SQL function.
struct SQLiteFunctionArguments {
    /// How many arguments there are.
    let count: Int32
    fileprivate let values: UnsafeMutablePointer<OpaquePointer?>?

    fileprivate func value(_ index: Int32) -> OpaquePointer? {
        guard index >= 0, index < count, let values else { return nil }
        return values[Int(index)]
    }

    /// Whether the argument is SQL `NULL` (or missing).
    func isNull(_ index: Int32) -> Bool {
        guard let value = value(index) else { return true }
        return sqlite3_value_type(value) == SQLITE_NULL
    }

    /// The argument as text (SQLite converts numbers); `""` when `NULL`.
    func text(_ index: Int32) -> String {
        guard let value = value(index), let characters = sqlite3_value_text(value) else { return "" }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// The argument as an integer (SQLite converts other types); 0 when `NULL`.
    func int64(_ index: Int32) -> Int64 {
        guard let value = value(index) else { return 0 }
        return sqlite3_value_int64(value)
    }

    /// The argument as a floating-point number (SQLite converts other types); 0 when `NULL`.
    func double(_ index: Int32) -> Double {
        guard let value = value(index) else { return 0 }
        return sqlite3_value_double(value)
    }

    /// The argument as a floating-point number, reading the text `'NaN'` (how Strata stores NaN) as NaN.
    func real(_ index: Int32) -> Double {
        guard let value = value(index) else { return 0 }
        if sqlite3_value_type(value) == SQLITE_TEXT, text(index) == "NaN" { return .nan }
        return sqlite3_value_double(value)
    }

    /// The argument as text comparison flags.
    func options(_ index: Int32) -> StrataTextOptions {
        StrataTextOptions(rawValue: int64(index))
    }
}

/// A Swift body for one SQL function; SQLite owns one retained box per registration.
final class SQLiteFunctionBox {
    /// Computes the result; only called when no argument is `NULL` (every Strata function
    /// returns `NULL` for a `NULL` argument).
    let body: (SQLiteFunctionArguments) throws(StrataFunctionError) -> StoredValue

    init(_ body: @escaping (SQLiteFunctionArguments) throws(StrataFunctionError) -> StoredValue) {
        self.body = body
    }
}

/// A Swift ordering for one SQL collation; SQLite owns one retained box per registration.
final class SQLiteCollationBox {
    /// Orders two texts.
    let compare: (String, String) -> ComparisonResult

    init(_ compare: @escaping (String, String) -> ComparisonResult) {
        self.compare = compare
    }
}

extension SQLiteFunctions {
    /// `SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS`: same input, same output, no side effects.
    private static let functionFlags = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS

    /// Registers a function taking `argumentCount` arguments.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    static func define(
        _ name: String,
        argumentCount: Int32,
        on handle: OpaquePointer,
        _ body: @escaping (SQLiteFunctionArguments) throws(StrataFunctionError) -> StoredValue
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(SQLiteFunctionBox(body)).toOpaque()
        // SQLite releases the box through the destroy callback, even when registration fails.
        let result = sqlite3_create_function_v2(
            handle, name, argumentCount, functionFlags, box,
            { context, count, values in
                guard let context, let data = sqlite3_user_data(context) else { return }
                let box = Unmanaged<SQLiteFunctionBox>.fromOpaque(data).takeUnretainedValue()
                let arguments = SQLiteFunctionArguments(count: count, values: values)
                if (0..<count).contains(where: arguments.isNull) {
                    sqlite3_result_null(context)
                    return
                }
                do throws(StrataFunctionError) {
                    SQLiteFunctions.setResult(try box.body(arguments), on: context)
                } catch {
                    sqlite3_result_error(context, error.message, -1)
                }
            },
            nil, nil,
            { data in
                guard let data else { return }
                Unmanaged<SQLiteFunctionBox>.fromOpaque(data).release()
            }
        )
        guard result == SQLITE_OK else {
            throw SQLiteError(resultCode: result, connection: handle, sql: "function \(name)")
        }
    }

    /// Registers a collation usable as `COLLATE name`.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses the registration.
    static func defineCollation(
        _ name: String,
        on handle: OpaquePointer,
        _ compare: @escaping (String, String) -> ComparisonResult
    ) throws(SQLiteError) {
        let box = Unmanaged.passRetained(SQLiteCollationBox(compare))
        let result = sqlite3_create_collation_v2(
            handle, name, SQLITE_UTF8, box.toOpaque(),
            { data, leftCount, leftBytes, rightCount, rightBytes in
                guard let data else { return 0 }
                let box = Unmanaged<SQLiteCollationBox>.fromOpaque(data).takeUnretainedValue()
                // Collation input is not NUL-terminated: always build strings from pointer and length.
                let left = String(
                    decoding: UnsafeRawBufferPointer(start: leftBytes, count: Int(leftCount)), as: UTF8.self)
                let right = String(
                    decoding: UnsafeRawBufferPointer(start: rightBytes, count: Int(rightCount)), as: UTF8.self)
                return Int32(box.compare(left, right).rawValue)
            },
            { data in
                guard let data else { return }
                Unmanaged<SQLiteCollationBox>.fromOpaque(data).release()
            }
        )
        guard result == SQLITE_OK else {
            // Unlike functions, SQLite does not call the destroy callback when this fails.
            box.release()
            throw SQLiteError(resultCode: result, connection: handle, sql: "collation \(name)")
        }
    }

    static func setResult(_ value: StoredValue, on context: OpaquePointer) {
        switch value {
        case .null:
            sqlite3_result_null(context)
        case .integer(let integer):
            sqlite3_result_int64(context, integer)
        case .real(let real):
            sqlite3_result_double(context, real)
        case .text(var text):
            text.withUTF8 { buffer in
                guard let base = buffer.baseAddress, !buffer.isEmpty else {
                    // A nil pointer would make the result NULL rather than empty text.
                    sqlite3_result_text(context, "", 0, strata_sqlite_transient())
                    return
                }
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) { characters in
                    sqlite3_result_text64(
                        context, characters, sqlite3_uint64(buffer.count),
                        strata_sqlite_transient(), UInt8(SQLITE_UTF8)
                    )
                }
            }
        case .blob(let bytes):
            guard !bytes.isEmpty else {
                sqlite3_result_zeroblob(context, 0)
                return
            }
            bytes.withUnsafeBytes { buffer in
                sqlite3_result_blob64(
                    context, buffer.baseAddress, sqlite3_uint64(buffer.count), strata_sqlite_transient())
            }
        }
    }
}
