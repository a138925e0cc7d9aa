import Strata

extension PostgresBootstrap {
    /// The migration ``run()`` would make, planned from what the store holds without writing or locking: each
    /// stage's changes, statements (the foreign keys an alteration replaces read from the catalog) and checks.
    /// Empty when the schema holds no store yet or the store already holds these models.
    ///
    /// - Throws: `StrataError.notAStrataStore`, `StrataError.migrationRefused` or `StrataError.unknownStoreVersion`
    ///   as the open would, ``PostgresError`` when the store can't be read.
    func plannedMigration() throws -> [MigrationStep] {
        guard try metadataExists() else { return [] }
        let steps = try planning.steps(from: try storedSchema(try readMetadata()))
        guard MigrationSteps.needsMigration(steps) else { return [] }
        let sql = PostgresMigrationSQL(connection: connection)
        return try MigrationSteps.plannedStages(steps) { try sql.listing($0) }
    }
}
