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
