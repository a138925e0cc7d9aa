import CSQLite

extension SQLiteConnection {
    /// Runs `body` inside a transaction and returns its result.
    ///
    /// The outermost call starts `BEGIN IMMEDIATE` (taking the write lock up front, so the
    /// transaction never fails half-way with `SQLITE_BUSY` on its first write) and commits
    /// when `body` returns. A call made while a transaction is already open uses a
    /// `SAVEPOINT` instead, so an inner failure undoes only the inner work. When `body`
    /// throws, its changes are rolled back and the error is rethrown unchanged.
    ///
    /// ```swift
    /// try connection.transaction {
    ///     try connection.run("INSERT INTO author(name) VALUES (?)", [.text("Le Guin")])
    ///     try connection.run("INSERT INTO book(author) VALUES (?)", [.integer(connection.lastInsertRowID)])
    /// }
    /// ```
    ///
    /// - Throws: whatever `body` throws, or ``SQLiteError`` when beginning or committing fails
    ///   (after which the transaction has been rolled back).
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try transaction(exclusive: false, body)
    }

    /// ``transaction(_:)``, starting the outermost transaction with `BEGIN EXCLUSIVE` when `exclusive` is set
    /// (a migration: no other connection may write until it commits; in WAL mode readers keep the old snapshot).
    ///
    /// - Throws: whatever `body` throws, or ``SQLiteError`` when beginning or committing fails.
    package func transaction<T>(exclusive: Bool, _ body: () throws -> T) throws -> T {
        if isInTransaction {
            return try withSavepoint(body)
        }
        try runBookkeeping(exclusive ? Self.beginExclusive : Self.beginImmediate)
        let result: T
        do {
            result = try body()
        } catch {
            rollBackOuterTransaction()
            throw error
        }
        do {
            try runBookkeeping(Self.commit)
        } catch {
            rollBackOuterTransaction()
            throw error
        }
        return result
    }

    private static let beginImmediate = KeptSQL("BEGIN IMMEDIATE")
    private static let beginExclusive = KeptSQL("BEGIN EXCLUSIVE")
    private static let commit = KeptSQL("COMMIT")

    /// Runs a statement of the connection's own (`BEGIN`, `COMMIT`), prepared once and kept: a save of one change
    /// compiles nothing. It does not count toward ``executedStatementCount``.
    private func runBookkeeping(_ sql: KeptSQL) throws(SQLiteError) {
        let statement = try prepare(sql, countsExecutions: false)
        defer { statement.reset() }
        try statement.runToCompletion()
    }

    private func withSavepoint<T>(_ body: () throws -> T) throws -> T {
        savepointDepth += 1
        defer { savepointDepth -= 1 }
        let name = "strata_savepoint_\(savepointDepth)"
        try execute("SAVEPOINT \(name)", countsExecutions: false)
        let result: T
        do {
            result = try body()
        } catch {
            // Some errors (a full disk, an interrupt) already ended the whole transaction.
            if isInTransaction {
                try? execute("ROLLBACK TO \(name); RELEASE \(name)", countsExecutions: false)
            }
            throw error
        }
        try execute("RELEASE \(name)", countsExecutions: false)
        return result
    }

    private func rollBackOuterTransaction() {
        // SQLite may have rolled back already (for example after SQLITE_FULL); only the
        // original error matters to the caller, so a failing ROLLBACK is not reported.
        if isInTransaction {
            try? execute("ROLLBACK", countsExecutions: false)
        }
    }
}
