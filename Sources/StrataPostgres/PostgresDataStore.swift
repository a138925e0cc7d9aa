import Foundation
import Strata

/// The store a ``PostgresConfiguration`` opens: the configuration's tables in a PostgreSQL database.
///
/// A container opens it itself and runs contexts' fetches and saves straight on PostgreSQL; `fetch(_:)` and
/// `save(_:)` in snapshots are for third-party stores, and this store answers them with
/// `DataStoreError.unsupportedFeature`: fetch and save through a `ModelContext`.
public final class PostgresDataStore: DataStore {
    /// The configuration type that opens the store.
    public typealias Configuration = PostgresConfiguration
    /// The snapshot type of the store's requests.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: PostgresConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// The store's identifier, recorded in its metadata table when it was created.
    public var identifier: String { store.identifier }
    let store: any PersistentStore

    /// Connects and opens (creating or migrating when needed) the configuration's tables, for its schema.
    /// - Throws: `StrataError.invalidConfiguration` when the configuration has no schema; what opening a
    ///   `ModelContainer` over it throws otherwise.
    public init(_ configuration: PostgresConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        (schema, store) = try configuration.openOwnStore(migrationPlan: migrationPlan)
        self.configuration = configuration
    }

    /// Not answered in snapshots: fetch through a `ModelContext` over a container of this configuration.
    /// - Throws: `DataStoreError.unsupportedFeature`.
    public func fetch<T: PersistentModel>(
        _ request: DataStoreFetchRequest<T>
    ) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        throw DataStoreError.unsupportedFeature
    }

    /// Not answered in snapshots: save through a `ModelContext` over a container of this configuration.
    /// - Throws: `DataStoreError.unsupportedFeature`.
    public func save(
        _ request: DataStoreSaveChangesRequest<DefaultSnapshot>
    ) throws -> DataStoreSaveChangesResult<DefaultSnapshot> {
        throw DataStoreError.unsupportedFeature
    }

    /// Removes every model's rows and the whole history, as `ModelContainer.erase()` does.
    /// - Throws: `StrataError.readOnlyContainer`, `StrataError.storeFailure`.
    public func erase() throws {
        try store.eraseAllData()
    }

    deinit {
        store.close(waitingForWatchers: true)
    }
}
