/// How one of Strata's own configurations opens its store: the hook through which `ModelContainer` opens stores
/// it does not know (PostgreSQL's lives in `StrataPostgres`, so Strata never links libpq). A configuration of a
/// third-party `DataStore` has none; its store is opened through the store's own initializer instead.
package protocol DataStoreFactory {
    /// Opens (creating or migrating when needed) the store for `schema`.
    /// - Throws: `StrataError` when the store can't be opened, holds other models, or can't be migrated.
    func makeStore(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> any PersistentStore
    /// The migration opening the store for `schema` would run, planned without writing (a dry run); empty when the
    /// store doesn't exist yet or already holds `schema`.
    /// - Throws: `StrataError` when the open would refuse the store or the migration.
    func plannedMigration(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> [MigrationStep]
}
