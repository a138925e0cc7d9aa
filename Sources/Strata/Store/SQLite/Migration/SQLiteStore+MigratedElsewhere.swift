extension SQLiteStore {
    private static let schemaVersion = SQLiteConnection.KeptSQL("PRAGMA schema_version")

    /// SQLite's schema cookie, which every change to the database's tables moves. Read before every save, through
    /// the connection's kept statement, straight from its column.
    static func schemaCookie(of connection: SQLiteConnection) throws -> Int64 {
        let statement = try connection.prepare(Self.schemaVersion)
        defer { statement.reset() }
        return try statement.step() ? statement.int64(at: 0) : 0
    }

    /// Checks, on the store's connection, that nobody migrated the tables of this store's entities since it
    /// opened (another container or process with newer models). A change that leaves them as they were — another
    /// container adding its own entity — is accepted and remembered.
    ///
    /// - Throws: `StrataError.storeMigrated` naming the version the store now holds.
    func checkNotMigratedElsewhere(_ connection: SQLiteConnection) throws {
        let cookie = try translatingErrors("read the store's schema version") { try Self.schemaCookie(of: connection) }
        guard cookie != knownSchemaCookie.withLock({ $0 }) else { return }
        let rows = try translatingErrors("read the store's metadata") {
            try connection.query(StoredSchema.selectRecorded)
        }
        let stored = rows.first?.first.flatMap {
            if case .text(let text) = $0 { StoredSchema.decode(text) } else { nil }
        }
        if let stored {
            if stored.holdsTables(of: schema, layout: SQLiteTableLayout(dialect: dialect)) {
                knownSchemaCookie.withLock { $0 = cookie }
                historyTablesExist.store(HistoryTables.exist(on: connection), ordering: .relaxed)
                return
            }
        }
        throw StrataError.storeMigrated(
            path: path ?? ":memory:", version: stored?.version?.description ?? "a newer, unversioned schema")
    }

    /// Runs a read, turning a failure caused by another connection's migration into `StrataError.storeMigrated`.
    func detectingMigration<T>(_ connection: SQLiteConnection, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StrataError {
            guard case .storeFailure = error else { throw error }
            try checkNotMigratedElsewhere(connection)
            throw error
        }
    }
}
