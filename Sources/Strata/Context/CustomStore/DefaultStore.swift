import Foundation

/// The store a `ModelConfiguration` opens: an SQLite file, or memory (SwiftData's `DefaultStore`).
///
/// A container opens it itself and runs contexts' fetches and saves straight on SQLite; `fetch(_:)` and
/// `save(_:)` in snapshots are for third-party stores, and this store answers them with
/// ``DataStoreError/unsupportedFeature``: fetch and save through a `ModelContext`.
public final class DefaultStore: DataStore {
    /// The configuration type that opens the store.
    public typealias Configuration = ModelConfiguration
    /// The snapshot type of the store's requests.
    public typealias Snapshot = DefaultSnapshot

    /// The configuration the store was opened with.
    public let configuration: ModelConfiguration
    /// The models the store holds.
    public let schema: Schema
    /// The store's identifier, recorded in the file when it was created.
    public var identifier: String { store.identifier }
    /// The configuration's name.
    public var name: String { configuration.name }
    let store: any PersistentStore

    /// Opens (creating or migrating when needed) the store the configuration describes, for its schema.
    /// - Throws: `StrataError.invalidConfiguration` when the configuration has no schema; what opening a
    ///   `ModelContainer` over it throws otherwise.
    public init(_ configuration: ModelConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws {
        (schema, store) = try configuration.openOwnStore(migrationPlan: migrationPlan)
        self.configuration = configuration
    }

    /// Not answered in snapshots: fetch through a `ModelContext` over a container of this configuration.
    /// - Throws: ``DataStoreError/unsupportedFeature``.
    public func fetch<T: PersistentModel>(
        _ request: DataStoreFetchRequest<T>
    ) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
        throw DataStoreError.unsupportedFeature
    }

    /// Not answered in snapshots: save through a `ModelContext` over a container of this configuration.
    /// - Throws: ``DataStoreError/unsupportedFeature``.
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
