import Synchronization

extension SQLiteConnection {
    /// SQL a connection runs on every save (`BEGIN`, `COMMIT`, the history rows' inserts), compiled once per
    /// connection and found again by a number given when the text was declared, rather than by hashing the text.
    ///
    /// Declare each as a `static let`, so its number is taken once per process:
    ///
    /// ```swift
    /// static let schemaVersion = SQLiteConnection.KeptSQL("PRAGMA schema_version")
    /// let statement = try connection.prepare(Self.schemaVersion)
    /// ```
    package struct KeptSQL: Sendable {
        /// The statement's text.
        package let sql: String
        /// Where the connection keeps the compiled statement (see `keptStatements`).
        let slot: Int

        private static let nextSlot = Atomic<Int>(0)

        /// Declares `sql` as kept, taking the next free number.
        package init(_ sql: String) {
            self.sql = sql
            slot = Self.nextSlot.add(1, ordering: .relaxed).oldValue
        }
    }

    /// The statement for `kept`, reset and with no bindings: compiled on first use and kept for the connection's
    /// lifetime. When that statement is still producing rows, a fresh one is compiled and not kept, as
    /// ``prepare(_:)`` does.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile.
    package func prepare(_ kept: KeptSQL, countsExecutions: Bool = true) throws(SQLiteError) -> SQLiteStatement {
        if kept.slot < keptStatements.count, let statement = keptStatements[kept.slot] {
            guard !statement.isInProgress else { return try compile(kept.sql, countsExecutions: countsExecutions) }
            statement.reset()
            return statement
        }
        let statement = try compile(kept.sql, countsExecutions: countsExecutions)
        if kept.slot >= keptStatements.count {
            keptStatements.append(contentsOf: repeatElement(nil, count: kept.slot + 1 - keptStatements.count))
        }
        keptStatements[kept.slot] = statement
        return statement
    }
}

extension SQLiteConnection {
    /// The statement for `sql`, a text `owner` holds for as long as it lives (a save's statement shape), reset and
    /// with no bindings: found again by the owner's identity rather than by hashing the text. When that statement
    /// is still producing rows, a fresh one is compiled and not kept, as ``prepare(_:)`` does.
    ///
    /// - Throws: ``SQLiteError`` when the SQL does not compile.
    package func prepare(_ sql: String, ownedBy owner: AnyObject) throws(SQLiteError) -> SQLiteStatement {
        let identity = ObjectIdentifier(owner)
        if let kept = statementsByOwner[identity] {
            guard !kept.statement.isInProgress else { return try compile(sql, countsExecutions: true) }
            kept.statement.reset()
            return kept.statement
        }
        let statement = try compile(sql, countsExecutions: true)
        // Kept with its owner, so the identity is not reused while the entry stands.
        if statementsByOwner.count >= Self.statementCacheLimit { statementsByOwner.removeAll() }
        statementsByOwner[identity] = (owner, statement)
        return statement
    }
}
