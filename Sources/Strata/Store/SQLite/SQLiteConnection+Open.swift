import CSQLite
import Foundation

extension SQLiteConnection {
    /// How much of an existing database file is checked when a connection opens it.
    package enum IntegrityCheck: Sendable, Hashable {
        /// The header, the schema and the pages reads reach (SQLite checks each page it loads), plus
        /// `PRAGMA quick_check` when the file was left by a process that never closed it. The cost doesn't grow
        /// with the file, except once after an unclean shutdown.
        case automatic
        /// `PRAGMA quick_check` at every open, which reads every page of the file.
        case full
    }

    /// How long a statement waits for another connection's lock before failing with `SQLITE_BUSY`.
    private static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens, checks and configures a `sqlite3*`; on any failure the handle is closed again.
    ///
    /// - Returns: the handle and, for a file, its registration in ``SQLiteOpenFiles`` (to close with it).
    static func openHandle(
        location: Location,
        readOnly: Bool,
        createIfMissing: Bool,
        integrityCheck: IntegrityCheck
    ) throws(SQLiteError) -> (handle: OpaquePointer, file: SQLiteOpenFiles.FileID?) {
        var filename = ":memory:"
        var checksExistingFile = false
        if case .file(let path) = location {
            filename = path
            checksExistingFile = try checkHeader(atPath: path)
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
        func open() throws(SQLiteError) -> OpaquePointer {
            var opened: OpaquePointer?
            let result = sqlite3_open_v2(filename, &opened, flags, nil)
            guard let handle = opened else {
                throw SQLiteError(resultCode: result, connection: nil)
            }
            guard result == SQLITE_OK else {
                let error = SQLiteError(resultCode: result, connection: handle)
                sqlite3_close_v2(handle)
                throw error
            }
            return handle
        }
        var file: SQLiteOpenFiles.FileID?
        var fullCheck = false
        let handle: OpaquePointer
        do throws(SQLiteError) {
            if case .file(let path) = location {
                let opened = try SQLiteOpenFiles.opening(path, open)
                (handle, file) = (opened.handle, opened.file)
                fullCheck = checksExistingFile && (integrityCheck == .full || opened.leftUnclosed)
            } else {
                handle = try open()
            }
        } catch {
            throw error.naming(location)
        }
        do throws(SQLiteError) {
            try configure(
                handle, location: location, readOnly: readOnly, checksExistingFile: checksExistingFile,
                fullCheck: fullCheck)
        } catch {
            _ = strata_sqlite_disable_checkpoint_on_close(handle)
            sqlite3_close_v2(handle)
            if let file { SQLiteOpenFiles.close(file) }
            throw error.naming(location)
        }
        return (handle, file)
    }

    /// Registers functions, checks the file, then sets the pragmas; the checks come before any pragma that could
    /// write (journal_mode=WAL rewrites the header), so a rejected file is never touched.
    private static func configure(
        _ handle: OpaquePointer,
        location: Location,
        readOnly: Bool,
        checksExistingFile: Bool,
        fullCheck: Bool
    ) throws(SQLiteError) {
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        _ = strata_sqlite_disable_double_quoted_strings(handle)
        // Indexes may use Strata's collations, so they must exist before the integrity check.
        try SQLiteFunctions.register(on: handle)
        if checksExistingFile, case .file(let path) = location {
            // Reading the schema makes SQLite load and check page 1 and every page of the schema table, and
            // replay a write-ahead log left by a crash; a damaged one fails here with SQLITE_CORRUPT.
            _ = try firstText(of: "SELECT count(*) FROM sqlite_schema", on: handle)
            if fullCheck {
                let verdict = try firstText(of: "PRAGMA quick_check(1)", on: handle)
                guard verdict == "ok" else {
                    throw SQLiteError.corrupt(path, detail: verdict ?? "no result")
                }
            }
        }
        if !readOnly, case .file = location {
            try switchToWAL(handle)
            _ = try firstText(of: "PRAGMA synchronous=NORMAL", on: handle)
        }
        _ = try firstText(of: "PRAGMA foreign_keys=ON", on: handle)
    }

    /// Whether a file exists at `path` with content, after checking its header (``SQLiteFileHeader``) and, when no
    /// write-ahead log is left to apply, that the file holds every page the header counts. A missing or empty file
    /// is a new database.
    ///
    /// - Throws: ``SQLiteError/notADatabase(_:)`` when the first bytes are not SQLite's, ``SQLiteError/corrupt(_:detail:)``
    ///   when the header is damaged or the file cut short.
    private static func checkHeader(atPath path: String) throws(SQLiteError) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
            let file = FileHandle(forReadingAtPath: path)
        else {
            // Missing or unreadable: let SQLite create it or report why it cannot open it.
            return false
        }
        defer { try? file.close() }
        // Another process's checkpoint writes page 1 before it grows the file, and resets the log once done: read
        // between the two, a live store looks cut short for a moment. A file still short after a few looks is.
        for attempt in 1...Self.shortFileLooks {
            let prefix: [UInt8]
            let fileSize: UInt64
            let logHasFrames = SQLiteOpenFiles.hasFrames(walOf: path)
            do {
                try file.seek(toOffset: 0)
                prefix = Array(try file.read(upToCount: SQLiteFileHeader.length) ?? Data())
                fileSize = try file.seekToEnd()
            } catch {
                throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "cannot read \(path): \(error)")
            }
            if prefix.isEmpty {
                return false
            }
            let header = try SQLiteFileHeader(prefix, path: path)
            if logHasFrames || SQLiteOpenFiles.hasFrames(walOf: path) { return true }
            do throws(SQLiteError) {
                try header.checkHoldsEveryPage(fileSize: Int(fileSize), path: path)
                return true
            } catch {
                guard attempt < Self.shortFileLooks else { throw error }
                usleep(20_000)
            }
        }
        return true
    }

    /// How many times a file that looks shorter than its pages is read before it is reported cut short.
    private static let shortFileLooks = 5

    /// Sets `journal_mode=WAL`. Switching a new file takes an exclusive lock without calling the busy handler, so
    /// while another connection opening the same new file (in this process or another) holds a lock, the switch
    /// fails with `SQLITE_BUSY` at once: it is tried again, for up to the busy timeout, as any other statement waits.
    private static func switchToWAL(_ handle: OpaquePointer) throws(SQLiteError) {
        let deadline = ContinuousClock.now + .milliseconds(Int(busyTimeoutMilliseconds))
        var pause = 1
        while true {
            do throws(SQLiteError) {
                _ = try firstText(of: "PRAGMA journal_mode=WAL", on: handle)
                return
            } catch  where error.isBusy && ContinuousClock.now < deadline {
                usleep(useconds_t(pause * 1_000))
                pause = min(pause * 2, 50)
            }
        }
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
    fileprivate func naming(_ location: SQLiteConnection.Location) -> SQLiteError {
        guard case .file(let path) = location, !message.contains(path) else { return self }
        var copy = self
        copy.message += " (\(path))"
        return copy
    }
}
