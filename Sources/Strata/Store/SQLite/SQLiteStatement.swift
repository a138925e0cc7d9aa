import CSQLite

/// One compiled SQL statement, owned by a ``SQLiteConnection``.
///
/// Get one from ``SQLiteConnection/prepare(_:)``, bind its parameters, then call ``step()``
/// until it returns `false`, reading columns while it returns `true`:
///
/// ```swift
/// let statement = try connection.prepare("SELECT title FROM book WHERE year > ?")
/// try statement.bind([.integer(1950)])
/// while try statement.step() {
///     print(statement.text(at: 0))
/// }
/// ```
///
/// Like its connection, a statement is not thread-safe: use it only where the connection is used.
package final class SQLiteStatement {
    /// The SQL text the statement was compiled from.
    package let sql: String

    /// The compiled statement; `nil` once finalized.
    private(set) var handle: OpaquePointer?

    /// The connection whose ``SQLiteConnection/executedStatementCount`` this statement bumps.
    private weak var owner: SQLiteConnection?

    /// Whether the next ``step()`` is the first since the last reset: a statement not stepped since needs no
    /// rewinding.
    private var isFresh = true

    /// Whether a value was bound since the last reset: a statement with none needs no clearing.
    var hasBindings = false

    /// Whether stepping counts toward ``SQLiteConnection/executedStatementCount``.
    private let countsExecutions: Bool

    init(sql: String, handle: OpaquePointer, owner: SQLiteConnection, countsExecutions: Bool) {
        self.sql = sql
        self.handle = handle
        self.owner = owner
        self.countsExecutions = countsExecutions
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Whether the statement has produced a row and has not been reset or run to completion.
    var isInProgress: Bool {
        guard let handle else { return false }
        return sqlite3_stmt_busy(handle) != 0
    }

    /// Rewinds the statement so it can run again, and clears every bound parameter. A statement neither stepped
    /// nor bound since its last reset is left as it is: a kept statement, reset after its run, is not reset again
    /// when it is next taken.
    package func reset() {
        guard let handle else { return }
        if !isFresh {
            sqlite3_reset(handle)
            isFresh = true
        }
        if hasBindings {
            sqlite3_clear_bindings(handle)
            hasBindings = false
        }
    }

    /// Releases the compiled statement; later calls to ``step()`` throw.
    func finalize() {
        sqlite3_finalize(handle)
        handle = nil
    }

    /// Runs the statement until its next row or its end.
    ///
    /// The first step after a reset counts once toward the connection's
    /// ``SQLiteConnection/executedStatementCount``.
    ///
    /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
    /// - Throws: ``SQLiteError`` when SQLite fails (a constraint, a busy database, …) or when
    ///   the statement's connection has closed.
    package func step() throws(SQLiteError) -> Bool {
        guard let handle else { throw .finalized(sql: sql) }
        if isFresh {
            isFresh = false
            if countsExecutions {
                owner?.noteExecutedStatement()
            }
        }
        let result = sqlite3_step(handle)
        switch result {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            return false
        default:
            throw failure(result, of: handle)
        }
    }

    /// Steps to the statement's end, appending each row's first column, read as an integer, to `integers`.
    ///
    /// One loop over SQLite with no call per row through ``step()``: a batched fetch reads every matching key
    /// this way before its first batch.
    /// - Throws: ``SQLiteError`` when a step fails (the rows read before it are appended).
    package func appendFirstColumnIntegers(to integers: inout [Int64]) throws(SQLiteError) {
        guard try step(), let handle else { return }
        while true {
            integers.append(sqlite3_column_int64(handle, 0))
            let result = sqlite3_step(handle)
            if result == SQLITE_ROW { continue }
            if result == SQLITE_DONE { return }
            throw failure(result, of: handle)
        }
    }

    /// The error of a failed step, the statement being reset so it can run again.
    private func failure(_ result: Int32, of handle: OpaquePointer) -> SQLiteError {
        let error = SQLiteError(resultCode: result, connection: sqlite3_db_handle(handle), sql: sql)
        sqlite3_reset(handle)
        isFresh = true
        return error
    }

    /// Steps until the statement is done, ignoring any rows.
    ///
    /// - Throws: ``SQLiteError`` when a step fails.
    func runToCompletion() throws(SQLiteError) {
        while try step() {}
    }
}
