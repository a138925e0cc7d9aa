extension ModelContainer {
    /// What opening a container with these arguments would do to its store, without touching the file (a dry run;
    /// SwiftData has no equivalent): the migration's stages with their changes and SQL. Empty when the store
    /// already holds the models, is in memory, or doesn't exist yet.
    ///
    /// ```swift
    /// for step in try ModelContainer.migrationSteps(for: Schema(versionedSchema: SchemaV3.self),
    ///                                               migrationPlan: TripsMigrationPlan.self,
    ///                                               configurations: ModelConfiguration(url: url)) {
    ///     print(step)
    /// }
    /// ```
    ///
    /// - Throws: the `StrataError` the open would throw before migrating: `migrationRefused` for a change that
    ///   can't be made losslessly, `unknownStoreVersion`, `notAStrataStore`, `storeOpenFailed`. Refusals that
    ///   depend on the stored data (duplicates, nils) are listed in ``MigrationStep/checks`` instead; for
    ///   configurations that can't share the models, `invalidConfiguration` as the container would.
    public static func migrationSteps(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws -> [MigrationStep] {
        try migrationSteps(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// What opening a container over any store (a `ModelConfiguration`'s file, a `PostgresConfiguration`'s
    /// database) would do to it, without writing: as ``migrationSteps(for:migrationPlan:configurations:)-(_,_,ModelConfiguration...)``.
    ///
    /// - Throws: as the variadic form; for PostgreSQL also `storeOpenFailed` when the server can't be reached.
    public static func migrationSteps(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: [any DataStoreConfiguration]
    ) throws -> [MigrationStep] {
        try throwingSwiftDataErrors {
            if configurations.count > 1 {
                let groups = try StoreGroup.assign(givenSchema, to: configurations)
                if groups.count > 1 {
                    // Several stores: each plans the migration of its own models, in the configurations' order.
                    try refuseMigrationPlan(migrationPlan, forStoresOf: groups)
                    return try groups.flatMap { group -> [MigrationStep] in
                        guard let factory = group.configuration as? any DataStoreFactory else { return [] }
                        return try factory.plannedMigration(
                            schema: Schema(sharing: group.entities, of: givenSchema), migrationPlan: nil)
                    }
                }
            }
            let configuration = configurations.first ?? ModelConfiguration()
            guard let factory = configuration as? any DataStoreFactory else { return [] }
            return try factory.plannedMigration(
                schema: givenSchema, migrationPlan: migrationPlan.map(StoreMigrationPlan.init))
        }
    }
}
