import CSQLite

/// An error reported by SQLite, or by Strata's checks around it.
///
/// The description names the SQLite result code, SQLite's message and the SQL that failed;
/// bound values are never included, so descriptions are safe to log.
///
/// ```swift
/// do {
///     try connection.run("INSERT INTO book(isbn) VALUES (?)", [.text(isbn)])
/// } catch let error as SQLiteError where error.isUniqueConstraintViolation {
///     // a book with this ISBN exists already
/// }
/// ```
package struct SQLiteError: Error, CustomStringConvertible, Equatable {
    /// The primary SQLite result code, such as `SQLITE_CONSTRAINT` (19).
    package var code: Int32
    /// The extended SQLite result code, such as `SQLITE_CONSTRAINT_UNIQUE` (2067).
    package var extendedCode: Int32
    /// SQLite's (or Strata's) explanation of the failure.
    package var message: String
    /// The SQL being prepared or run when the error happened, if any.
    package var sql: String?

    /// Creates an error from its parts; `code` is derived from the low byte of `extendedCode`.
    package init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xFF
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// Creates an error from a failed SQLite call, reading the message from the connection.
    ///
    /// `resultCode` is the value the call returned; the connection's message is used when it
    /// has one, and SQLite's generic text for the code otherwise.
    package init(resultCode: Int32, connection handle: OpaquePointer?, sql: String? = nil) {
        var message = String(cString: sqlite3_errstr(resultCode))
        if let handle, sqlite3_errcode(handle) != SQLITE_OK, let text = sqlite3_errmsg(handle) {
            message = String(cString: text)
        }
        self.init(extendedCode: resultCode, message: message, sql: sql)
    }

    /// The error for a file that exists but does not start with the SQLite header.
    ///
    /// Strata throws it before opening the file, so the file is never modified.
    package static func notADatabase(_ path: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_NOTADB, message: "file is not an SQLite database: \(path)")
    }

    /// The error for a database whose integrity check failed on open.
    package static func corrupt(_ path: String, detail: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_CORRUPT, message: "database file is corrupt: \(path) (\(detail))")
    }

    /// The error for using a statement after its connection closed.
    package static func finalized(sql: String) -> SQLiteError {
        SQLiteError(extendedCode: SQLITE_MISUSE, message: "statement used after its connection closed", sql: sql)
    }

    /// Whether a `UNIQUE` or `PRIMARY KEY` constraint rejected the change.
    package var isUniqueConstraintViolation: Bool {
        extendedCode == Self.constraintUnique || extendedCode == Self.constraintPrimaryKey
    }

    // Swift cannot import the extended-code macros, which are built from SQLITE_CONSTRAINT.
    private static let constraintPrimaryKey = SQLITE_CONSTRAINT | (6 << 8)
    private static let constraintUnique = SQLITE_CONSTRAINT | (8 << 8)

    /// Whether another connection holds a conflicting lock (`SQLITE_BUSY` or `SQLITE_LOCKED`).
    package var isBusy: Bool {
        code == SQLITE_BUSY || code == SQLITE_LOCKED
    }

    /// Whether a write was refused because the database is read-only.
    package var isReadOnly: Bool {
        code == SQLITE_READONLY
    }

    /// Whether SQLite (or the open-time integrity check) found the database file damaged.
    package var isCorrupt: Bool {
        code == SQLITE_CORRUPT
    }

    /// Whether the file is not an SQLite database at all.
    package var isNotADatabase: Bool {
        code == SQLITE_NOTADB
    }

    /// The result code, SQLite's message and the SQL, without any bound values; very long SQL is shown
    /// by its start and end (``Swift/String/elided(limit:)``).
    package var description: String {
        var text = "SQLite error \(code)"
        if extendedCode != code {
            text += " (extended \(extendedCode))"
        }
        text += ": \(message.elided())"
        if let sql {
            text += " — while running `\(sql.elided())`"
        }
        return text
    }
}
