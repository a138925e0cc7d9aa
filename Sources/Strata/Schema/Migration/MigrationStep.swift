/// One stage of a migration as a dry run reports it: the versions it goes between, each schema change, the
/// SQL it would run and the checks of the stored data it would make first.
public struct MigrationStep: Sendable, Hashable, CustomStringConvertible {
    /// How the stage came about.
    public enum Kind: String, Sendable, Hashable {
        /// A plan's `MigrationStage.lightweight` (or two consecutive versions without a stage).
        case lightweight
        /// A plan's `MigrationStage.custom`: its `willMigrate` and `didMigrate` would run around the SQL.
        case custom
        /// No plan covers it: Strata inferred it from the models.
        case inferred
    }

    /// How the stage came about.
    public let kind: Kind
    /// The store's version before the stage, if it has one.
    public let fromVersion: Schema.Version?
    /// The version after the stage, if known.
    public let toVersion: Schema.Version?
    /// Each change to the schema, in order.
    public let changes: [SchemaChange]
    /// The SQL statements, in order.
    public let sql: [String]
    /// Queries that must return no row for the stage to succeed (for example no duplicates under a new
    /// uniqueness constraint); they run inside the migration, after `willMigrate`.
    public let checks: [String]

    /// The stage as text: a heading with its kind and versions, then one line per change, check and statement.
    public var description: String {
        let versions = "\(fromVersion?.description ?? "unversioned") → \(toVersion?.description ?? "unversioned")"
        var lines = ["\(kind.rawValue) stage \(versions)"]
        lines += changes.map { "  change: \($0.description)" }
        lines += checks.map { "  check:  \($0)" }
        lines += sql.map { "  sql:    \($0)" }
        return lines.joined(separator: "\n")
    }
}

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
    ///   depend on the stored data (duplicates, nils) are listed in ``MigrationStep/checks`` instead.
    public static func migrationSteps(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: ModelConfiguration...
    ) throws -> [MigrationStep] {
        try migrationSteps(for: givenSchema, migrationPlan: migrationPlan, configurations: configurations)
    }

    /// What opening a container over any store (a `ModelConfiguration`'s file, a `PostgresConfiguration`'s
    /// database) would do to it, without writing: as ``migrationSteps(for:migrationPlan:configurations:)-(_,_,ModelConfiguration...)``.
    ///
    /// - Throws: as the variadic form; for PostgreSQL also `storeOpenFailed` when the server can't be reached.
    public static func migrationSteps(
        for givenSchema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)? = nil, configurations: [any DataStoreConfiguration]
    ) throws -> [MigrationStep] {
        let configuration = configurations.first ?? ModelConfiguration()
        guard let factory = configuration as? any DataStoreFactory else { return [] }
        return try factory.plannedMigration(schema: givenSchema, migrationPlan: migrationPlan)
    }
}
