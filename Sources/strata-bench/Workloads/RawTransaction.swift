/// A raw floor's connection that runs SQL text: SQLite's or libpq's.
protocol RawSQLConnection {
    func execute(_ sql: String) throws
}

extension RawSQLConnection {
    /// Runs `body` inside one transaction, rolled back when it throws.
    func transaction(_ body: () throws -> Void) throws {
        try execute("BEGIN")
        do {
            try body()
            try execute("COMMIT")
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
