import CSQLite
import Foundation

extension SQLiteConnection {
    /// The 16 bytes every SQLite database file starts with: "SQLite format 3" and a NUL.
    private static let fileHeader = Array("SQLite format 3\0".utf8)

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    private static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens, checks and configures a `sqlite3*`; on any failure the handle is closed again.
    static func openHandle(
        location: Location,
        readOnly: Bool,
        createIfMissing: Bool
    ) throws(SQLiteError) -> OpaquePointer {
        var filename = ":memory:"
        var checksExistingFile = false
        if case .file(let path) = location {
            filename = path
            checksExistingFile = try hasContent(atPath: path)
        }
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        if readOnly {
            flags |= SQLITE_OPEN_READONLY
        } else {
            flags |= SQLITE_OPEN_READWRITE
            // A private in-memory database is always new, so it always needs creating.
            if createIfMissing || location == .memory {
                flags |= SQLITE_OPEN_CREATE
            }
        }
        var opened: OpaquePointer?
        let result = sqlite3_open_v2(filename, &opened, flags, nil)
        guard let handle = opened else {
            throw SQLiteError(resultCode: result, connection: nil)
        }
        do throws(SQLiteError) {
            guard result == SQLITE_OK else {
                throw SQLiteError(resultCode: result, connection: handle)
            }
            try configure(handle, location: location, readOnly: readOnly, checksIntegrity: checksExistingFile)
        } catch {
            sqlite3_close_v2(handle)
            if case .file(let path) = location {
                throw error.naming(path)
            }
            throw error
        }
        return handle
    }

    /// Registers functions, checks integrity, then sets the pragmas; the checks come before
    /// any pragma that could write (journal_mode=WAL rewrites the header), so a rejected file
    /// is never touched.
    private static func configure(
        _ handle: OpaquePointer,
        location: Location,
        readOnly: Bool,
        checksIntegrity: Bool
    ) throws(SQLiteError) {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        _ = strata_sqlite_disable_double_quoted_strings(handle)
        // Indexes may use Strata's collations, so they must exist before the integrity check.
        try SQLiteFunctions.register(on: handle)
        if checksIntegrity, case .file(let path) = location {
            let verdict = try firstText(of: "PRAGMA quick_check(1)", on: handle)
            guard verdict == "ok" else {
                throw SQLiteError.corrupt(path, detail: verdict ?? "no result")
            }
        }
        if !readOnly, case .file = location {
            _ = try firstText(of: "PRAGMA journal_mode=WAL", on: handle)
            _ = try firstText(of: "PRAGMA synchronous=NORMAL", on: handle)
        }
        _ = try firstText(of: "PRAGMA foreign_keys=ON", on: handle)
    }

    /// Whether a file exists at `path` with content, after checking it starts with the SQLite
    /// header. A missing or empty file is a new database.
    ///
    /// - Throws: ``SQLiteError/notADatabase(_:)`` when the first bytes are not the header.
    private static func hasContent(atPath path: String) throws(SQLiteError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
              let file = FileHandle(forReadingAtPath: path)
        else {
            // Missing or unreadable: let SQLite create it or report why it cannot open it.
            return false
        }
        defer { try? file.close() }
        let prefix: [UInt8]
        do {
            prefix = Array(try file.read(upToCount: fileHeader.count) ?? Data())
        } catch {
            throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "cannot read \(path): \(error)")
        }
        if prefix.isEmpty {
            return false
        }
        guard prefix == fileHeader else {
            throw .notADatabase(path)
        }
        return true
    }

    /// Runs one statement on a raw handle and returns the first column of its first row.
    private static func firstText(of sql: String, on handle: OpaquePointer) throws(SQLiteError) -> String? {
        var statement: OpaquePointer?
        let prepared = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        defer { sqlite3_finalize(statement) }
        guard prepared == SQLITE_OK, let statement else {
            throw SQLiteError(resultCode: prepared, connection: handle, sql: sql)
        }
        let stepped = sqlite3_step(statement)
        switch stepped {
        case SQLITE_ROW:
            return sqlite3_column_text(statement, 0).map { String(cString: $0) }
        case SQLITE_DONE:
            return nil
        default:
            throw SQLiteError(resultCode: stepped, connection: handle, sql: sql)
        }
    }
}

extension SQLiteError {
    /// The same error with the database path in its message, unless it names it already.
    fileprivate func naming(_ path: String) -> SQLiteError {
        guard !message.contains(path) else { return self }
        var copy = self
        copy.message += " (\(path))"
        return copy
    }
}
