import Strata

extension PostgresStore {
    /// Runs `body` on one of the store's pooled connections to the primary (its session settings applied, so the
    /// store's PostgreSQL schema leads the search path): how a package module keeps tables of its own beside the
    /// store's and reads them in the store's terms.
    /// - Throws: `StrataError.storeFailure` naming `operation` when the connection or a statement fails, or what
    ///   `body` throws.
    package func withPrimaryConnection<T>(_ operation: String, _ body: (PostgresConnection) throws -> T) throws -> T {
        try withConnection(operation, isRead: false, body)
    }

    /// The PostgreSQL schema holding the store's tables.
    package var databaseSchema: String { configuration.databaseSchema }
}
