import Foundation

/// Describes a store a `ModelContainer` opens: SwiftData's custom-store vocabulary (iOS 18). `ModelConfiguration`
/// (an SQLite file or memory) and `StrataPostgres`'s `PostgresConfiguration` conform.
///
/// ```swift
/// let container = try ModelContainer(for: Book.self, configurations: PostgresConfiguration(url: databaseURL))
/// ```
///
/// SwiftData's protocol also names its store type (`associatedtype Store: PersistentStore`); Strata's store interface is
/// internal to the package, so a configuration instead makes its store through `DataStoreFactory`, which only
/// Strata's own configurations adopt.
public protocol DataStoreConfiguration: Hashable, Sendable {
    /// The configuration's name.
    var name: String { get }
    /// The schema this configuration stores; `nil` uses the container's.
    var schema: Schema? { get set }
    /// Checks the configuration before a container opens its store.
    /// - Throws: `StrataError.invalidConfiguration` saying what is wrong.
    func validate() throws
}

extension DataStoreConfiguration {
    /// Accepts the configuration: a store whose configuration has nothing to check.
    public func validate() throws {}
}

/// How a configuration opens its store: the hook through which `ModelContainer` opens stores it does not know
/// (PostgreSQL's lives in `StrataPostgres`, so Strata never links libpq).
package protocol DataStoreFactory {
    /// Opens (creating or migrating when needed) the store for `schema`.
    /// - Throws: `StrataError` when the store can't be opened, holds other models, or can't be migrated.
    func makeStore(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> any PersistentStore
    /// The migration opening the store for `schema` would run, planned without writing (a dry run); empty when the
    /// store doesn't exist yet or already holds `schema`.
    /// - Throws: `StrataError` when the open would refuse the store or the migration.
    func plannedMigration(schema: Schema, migrationPlan: StoreMigrationPlan?) throws -> [MigrationStep]
}
