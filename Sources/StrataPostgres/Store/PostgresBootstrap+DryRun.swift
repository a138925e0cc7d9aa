import Strata

extension PostgresBootstrap {
    /// The migration ``run()`` would make, planned from what the store holds without writing or locking: each
    /// stage's changes, statements (the foreign keys an alteration replaces read from the catalog) and checks.
    /// Empty when the schema holds no store yet or the store already holds these models.
    ///
    /// - Throws: `StrataError.notAStrataStore`, `StrataError.migrationRefused` or `StrataError.unknownStoreVersion`
    ///   as the open would, ``PostgresError`` when the store can't be read.
    func plannedMigration() throws -> [MigrationStep] {
        let namespace = PostgreSQLDialect().quote(identifier: configuration.databaseSchema)
        let metadata = "\(namespace).\(PostgreSQLDialect().quote(identifier: StoreLayout.metadataTable))"
        let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", [.text(metadata)])
        guard exists.text(row: 0, column: 0) == "t" else { return [] }
        let steps = try planning.steps(from: try storedSchema(try readMetadata(metadata)))
        guard MigrationSteps.needsMigration(steps) else { return [] }
        let sql = PostgresMigrationSQL(connection: connection)
        return try MigrationSteps.plannedStages(steps) { try sql.listing($0) }
    }
}
