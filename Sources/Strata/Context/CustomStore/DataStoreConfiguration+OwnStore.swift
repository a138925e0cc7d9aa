extension DataStoreConfiguration where Self: DataStoreFactory {
    /// Opens the store of one of Strata's own configurations by itself (`DefaultStore(_:migrationPlan:)`), for
    /// the configuration's schema.
    /// - Throws: `StrataError.invalidConfiguration` when the configuration has no schema; what opening a
    ///   `ModelContainer` over it throws otherwise.
    package func openOwnStore(migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> (Schema, any PersistentStore) {
        guard let schema else {
            throw StrataError.invalidConfiguration(
                name: name, kind: .loadIssueModelContainer,
                reason: "a store opened by itself needs the configuration's schema")
        }
        try validate()
        return (schema, try makeStore(schema: schema, migrationPlan: migrationPlan.map(StoreMigrationPlan.init)))
    }
}
