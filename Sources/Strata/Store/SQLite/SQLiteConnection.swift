import CSQLite

/// One open SQLite database connection with Strata's functions and collations registered.
///
/// The connection is not thread-safe (it is opened with `SQLITE_OPEN_NOMUTEX`): callers must
/// serialize every use of it and of its statements.
///
/// ```swift
/// let connection = try SQLiteConnection(location: .file("/tmp/books.sqlite"))
/// try connection.execute("CREATE TABLE IF NOT EXISTS book(title TEXT NOT NULL)")
/// try connection.run("INSERT INTO book(title) VALUES (?)", [.text("Dune")])
/// let rows = try connection.query("SELECT title FROM book", [])
/// ```
package final class SQLiteConnection {
    /// Where a connection's database lives.
    package enum Location: Sendable, Hashable {
        /// A database file at a filesystem path.
        case file(String)
        /// A private in-memory database, gone when the connection closes.
        case memory
    }

    /// The most statements the cache keeps before it starts over.
    static let statementCacheLimit = 256

    /// The open `sqlite3*`.
    let handle: OpaquePointer

    /// Where the database lives.
    package let location: Location

    /// The file's registration among the files this process has open (`nil` in memory).
    private let openFile: SQLiteOpenFiles.FileID?

    /// Whether the connection was opened read-only.
    package let isReadOnly: Bool

    /// Compiled statements by SQL text, reused after a reset.
    private var statementCache: [String: SQLiteStatement] = [:]

    /// The statements of ``KeptSQL`` texts this connection compiled, at their numbers.
    var keptStatements: [SQLiteStatement?] = []

    /// Statements compiled for texts an object owns (a save's statement shape), by the owner's identity, each kept
    /// with its owner.
    var statementsByOwner: [ObjectIdentifier: (owner: AnyObject, statement: SQLiteStatement)] = [:]

    /// The data change counter read just after this connection's last save committed (``noteOwnSaveCommitted()``);
    /// `nil` before one, or when the next must not rely on it.
    var counterAfterOwnSave: UInt32?

    /// How many savepoints ``transaction(_:)`` currently has open inside the outer transaction.
    var savepointDepth = 0

    /// How many statements have started running on this connection.
    ///
    /// Every statement counts once, on its first step after a reset, whether it goes through
    /// ``execute(_:)``, ``run(_:_:)``, ``query(_:_:)`` or a statement from ``prepare(_:)``.
    /// Bookkeeping SQL the connection issues itself (open-time pragmas, `BEGIN`, `COMMIT`,
    /// savepoints, ``dataVersion()``) is not counted, so tests can count the queries a feature runs.
    package private(set) var executedStatementCount = 0

    /// How many statements this connection has compiled: through ``prepare(_:)`` (once per text while it stays in
    /// the cache) and ``execute(_:)`` (every time). Work the connection has seen before compiles nothing.
    package internal(set) var compiledStatementCount = 0

    /// Opens (and, by default, creates) a database.
    ///
    /// An existing file must pass `integrityCheck` (its header, its schema and, after an unclean shutdown or when
    /// asked, SQLite's `quick_check`); otherwise the connection is not opened and the file is left byte-for-byte
    /// unchanged. Damage the open-time checks don't reach fails the read that reaches it with ``SQLiteError/isCorrupt``.
    /// A writable file connection is switched to WAL with `synchronous=NORMAL`; every
    /// connection waits up to 5 seconds on a busy database and enforces foreign keys.
    ///
    /// ```swift
    /// let scratch = try SQLiteConnection(location: .memory)
    /// ```
    ///
    /// - Throws: ``SQLiteError`` with ``SQLiteError/isNotADatabase`` for a foreign file,
    ///   ``SQLiteError/isCorrupt`` for a damaged database, or SQLite's error when the file
    ///   cannot be opened (missing with `createIfMissing: false`, no permission, …).
    package init(
        location: Location, readOnly: Bool = false, createIfMissing: Bool = true,
        integrityCheck: IntegrityCheck = .automatic
    ) throws(SQLiteError) {
        (self.handle, self.openFile) = try Self.openHandle(
            location: location, readOnly: readOnly, createIfMissing: createIfMissing, integrityCheck: integrityCheck)
        self.location = location
        self.isReadOnly = readOnly
    }

    deinit {
        for statement in statementCache.values {
            statement.finalize()
        }
        for case let statement? in keptStatements {
            statement.finalize()
        }
        for kept in statementsByOwner.values {
            kept.statement.finalize()
        }
        sqlite3_close_v2(handle)
        if let openFile { SQLiteOpenFiles.close(openFile) }
    }

    /// The database file's path, or `nil` for an in-memory database.
    package var path: String? {
        switch location {
        case .file(let path):
            return path
        case .memory:
            return nil
        }
    }

    /// The row ID of the most recent successful `INSERT` on this connection.
    package var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The number of rows the most recent `INSERT`, `UPDATE` or `DELETE` changed.
    package var changes: Int {
        Int(sqlite3_changes64(handle))
    }

    /// Whether a transaction is open (started by ``transaction(_:)`` or by raw SQL).
    package var isInTransaction: Bool {
        sqlite3_get_autocommit(handle) == 0
    }

    /// Returns the compiled statement for `sql`, reset and with no bindings.
    ///
    /// Statements are cached by their SQL text, so preparing the same text again returns the
    /// same statement. When that statement is still in the middle of producing rows, a fresh
    /// uncached statement is returned instead, so nested use never disturbs an outer loop.
    ///
    /// ```swift
    /// let statement = try connection.prepare("SELECT count(*) FROM book")
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile (syntax error, unknown table, …).
    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try prepare(sql, countsExecutions: true)
    }

    /// ``prepare(_:)`` with control over whether the statement bumps ``executedStatementCount``.
    func prepare(_ sql: String, countsExecutions: Bool) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statementCache[sql] {
            if !cached.isInProgress {
                cached.reset()
                return cached
            }
            return try compile(sql, countsExecutions: countsExecutions)
        }
        let statement = try compile(sql, countsExecutions: countsExecutions)
        if statementCache.count >= Self.statementCacheLimit {
            // Evicted statements stay valid for whoever holds them; they finalize on release.
            statementCache.removeAll()
        }
        statementCache[sql] = statement
        return statement
    }

    /// Compiles `sql` into a new statement that is not cached.
    func compile(_ sql: String, countsExecutions: Bool) throws(SQLiteError) -> SQLiteStatement {
        var statementHandle: OpaquePointer?
        compiledStatementCount += 1
        let result = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statementHandle, nil)
        guard result == SQLITE_OK else {
            sqlite3_finalize(statementHandle)
            throw SQLiteError(resultCode: result, connection: handle, sql: sql)
        }
        guard let statementHandle else {
            throw SQLiteError(extendedCode: SQLITE_MISUSE, message: "SQL contains no statement", sql: sql)
        }
        return SQLiteStatement(sql: sql, handle: statementHandle, owner: self, countsExecutions: countsExecutions)
    }

    /// Records that a statement started running; called by ``SQLiteStatement/step()``.
    func noteExecutedStatement() {
        executedStatementCount += 1
    }
}
