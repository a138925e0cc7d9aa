import CSQLite

extension SQLiteConnection {
    /// Runs SQL text that may hold several statements separated by `;`, without bindings.
    ///
    /// Each statement counts once toward ``executedStatementCount``.
    ///
    /// ```swift
    /// try connection.execute("""
    ///     CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT);
    ///     CREATE INDEX author_name ON author(name);
    ///     """)
    /// ```
    ///
    /// - Throws: ``SQLiteError`` for the first statement that fails; the statements before it
    ///   have run.
    package func execute(_ sql: String) throws(SQLiteError) {
        try execute(sql, countsExecutions: true)
    }

    /// ``execute(_:)`` with control over whether the statements bump ``executedStatementCount``.
    func execute(_ sql: String, countsExecutions: Bool) throws(SQLiteError) {
        let error = sql.withCString { start -> SQLiteError? in
            var cursor: UnsafePointer<CChar>? = start
            while let current = cursor, current.pointee != 0 {
                var statement: OpaquePointer?
                compiledStatementCount += 1
                let prepared = sqlite3_prepare_v2(handle, current, -1, &statement, &cursor)
                guard prepared == SQLITE_OK else {
                    sqlite3_finalize(statement)
                    return SQLiteError(resultCode: prepared, connection: handle, sql: sql)
                }
                // Whitespace and comments compile to no statement.
                guard let statement else { continue }
                if countsExecutions {
                    noteExecutedStatement()
                }
                var stepped = sqlite3_step(statement)
                while stepped == SQLITE_ROW {
                    stepped = sqlite3_step(statement)
                }
                let failure =
                    stepped == SQLITE_DONE
                    ? nil : SQLiteError(resultCode: stepped, connection: handle, sql: sql)
                sqlite3_finalize(statement)
                if let failure {
                    return failure
                }
            }
            return nil
        }
        if let error {
            throw error
        }
    }

    /// Runs one statement with bindings to completion, ignoring any rows it returns.
    ///
    /// ```swift
    /// try connection.run("DELETE FROM book WHERE year < ?", [.integer(1900)])
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile, the bindings do not fit, or a
    ///   step fails (for example a constraint violation).
    package func run(_ sql: String, _ bindings: [StoredValue]) throws(SQLiteError) {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        try statement.runToCompletion()
    }

    /// Runs one statement with bindings and returns every row it produces.
    ///
    /// ```swift
    /// let rows = try connection.query("SELECT id, title FROM book WHERE year = ?", [.integer(1965)])
    /// ```
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile, the bindings do not fit, or a
    ///   step fails.
    package func query(_ sql: String, _ bindings: [StoredValue]) throws(SQLiteError) -> [[StoredValue]] {
        let statement = try prepare(sql)
        defer { statement.reset() }
        try statement.bind(bindings)
        var rows: [[StoredValue]] = []
        while try statement.step() {
            rows.append(statement.row())
        }
        return rows
    }

    /// Runs one statement written as an ``SQLFragment`` to completion, ignoring any rows it returns.
    /// - Throws: ``SQLiteError`` when the SQL does not compile or a step fails.
    package func run(_ statement: SQLFragment) throws(SQLiteError) {
        let (sql, bindings) = statement.render(in: SQLiteDialect())
        try run(sql, bindings)
    }

    /// Runs one statement written as an ``SQLFragment`` and returns every row it produces.
    /// - Throws: ``SQLiteError`` when the SQL does not compile or a step fails.
    package func query(_ statement: SQLFragment) throws(SQLiteError) -> [[StoredValue]] {
        let (sql, bindings) = statement.render(in: SQLiteDialect())
        return try query(sql, bindings)
    }

    /// Prepares (or takes from the cache) a statement written as an ``SQLFragment``, with its values bound, for the
    /// caller to step through and reset (and, for ``SQLFragment/parameters(_:)``, to bind row by row).
    /// - Throws: ``SQLiteError`` when the SQL does not compile or the values do not bind.
    package func prepareBound(_ statement: SQLFragment) throws(SQLiteError) -> SQLiteStatement {
        let (sql, bindings) = statement.render(in: SQLiteDialect())
        let prepared = try prepare(sql)
        // A statement of parameters only is bound by the caller, row by row.
        guard !bindings.isEmpty else { return prepared }
        do {
            try prepared.bind(bindings)
        } catch {
            prepared.reset()
            throw error
        }
        return prepared
    }

    private static let dataVersionPragma = KeptSQL("PRAGMA data_version")

    /// SQLite's `PRAGMA data_version`: it changes whenever another connection commits.
    ///
    /// Compare two readings to learn whether the database changed behind this connection's
    /// back. Reading it does not count toward ``executedStatementCount``.
    ///
    /// - Throws: ``SQLiteError`` when the pragma cannot run.
    package func dataVersion() throws(SQLiteError) -> Int64 {
        let statement = try prepare(Self.dataVersionPragma, countsExecutions: false)
        defer { statement.reset() }
        guard try statement.step() else { return 0 }
        return statement.int64(at: 0)
    }
}
