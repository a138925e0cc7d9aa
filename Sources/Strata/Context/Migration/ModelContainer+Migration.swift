extension ModelContainer {
    /// Creates a container for a schema whose store migrates through `migrationPlan` from the version it holds
    /// to the newest. Without a plan, a store of other models is migrated when every change is lossless.
    ///
    /// ```swift
    /// let container = try ModelContainer(for: Schema(versionedSchema: SchemaV2.self), migrationPlan: TripsMigrationPlan.self)
    /// ```
    ///
    /// - Throws: `StrataError.migrationRefused` for a change no stage makes losslessly or stored data a stage
    ///   can't carry over, `StrataError.unknownStoreVersion` for a store version the plan doesn't list, whatever
    ///   a custom stage throws, and the errors of `init(for:configurations:)`. The file is then as it was.
    public convenience init(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// Creates a container for model classes whose store migrates through `migrationPlan`.
    ///
    /// - Throws: as `init(for:migrationPlan:configurations:)`.
    public convenience init(
        for forTypes: any PersistentModel.Type..., migrationPlan: (any SchemaMigrationPlan.Type)? = nil,
        configurations: ModelConfiguration...
    ) throws {
        try self.init(for: Schema(forTypes), migrationPlan: migrationPlan, configurations: configurations)
    }
}
