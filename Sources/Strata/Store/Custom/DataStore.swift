import Foundation

/// A store that reads and writes models for a `ModelContainer` in its own format (SwiftData's custom stores,
/// iOS 18): a JSON file, a document, a web service. The container talks to it in snapshots of models' values.
///
/// ```swift
/// final class JSONStore: DataStore {
///     typealias Configuration = JSONStoreConfiguration
///     typealias Snapshot = DefaultSnapshot
///     var configuration: JSONStoreConfiguration
///     var name: String
///     var schema: Schema
///     var identifier: String
///     init(_ configuration: JSONStoreConfiguration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws { … }
///     func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, DefaultSnapshot> {
///         if request.descriptor.predicate != nil { throw DataStoreError.preferInMemoryFilter }
///         if !request.descriptor.sortBy.isEmpty { throw DataStoreError.preferInMemorySort }
///         return DataStoreFetchResult(descriptor: request.descriptor, fetchedSnapshots: try read(T.self))
///     }
///     func save(_ request: DataStoreSaveChangesRequest<DefaultSnapshot>) throws -> DataStoreSaveChangesResult<DefaultSnapshot> { … }
/// }
/// ```
///
/// A store may filter and sort itself, or throw ``DataStoreError/preferInMemoryFilter`` or
/// ``DataStoreError/preferInMemorySort`` and leave it to the container, which then fetches every model of the
/// entity and judges the predicate as SQLite would. Strata gives every store ``DefaultSnapshot``s.
public protocol DataStore: AnyObject {
    /// The configuration type that opens this store.
    associatedtype Configuration: DataStoreConfiguration where Self == Self.Configuration.Store
    /// The snapshot type the store reads and writes models' values as.
    associatedtype Snapshot: DataStoreSnapshot

    /// The configuration the store was opened with.
    var configuration: Self.Configuration { get }
    /// The models the store holds.
    var schema: Schema { get }
    /// A stable identifier of the store: part of every identifier it makes
    /// (``PersistentIdentifier/identifier(for:entityName:primaryKey:)``).
    var identifier: String { get }

    /// Opens the store a configuration describes.
    /// - Throws: whatever keeps the store from opening; the container fails with it.
    init(_ configuration: Self.Configuration, migrationPlan: (any SchemaMigrationPlan.Type)?) throws

    /// The snapshots of the models a request selects, and of models they relate to.
    /// - Throws: ``DataStoreError/preferInMemoryFilter`` or ``DataStoreError/preferInMemorySort`` to have the
    ///   container filter or sort; any other error fails the fetch.
    func fetch<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> DataStoreFetchResult<T, Self.Snapshot>
    /// How many models a request selects.
    /// - Throws: as ``fetch(_:)``.
    func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int
    /// The identifiers of the models a request selects.
    /// - Throws: as ``fetch(_:)``.
    func fetchIdentifiers<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> [PersistentIdentifier]
    /// Writes inserted, updated and deleted models, giving each inserted one its permanent identifier
    /// (``DataStoreSaveChangesResult/remappedIdentifiers``). Write all of them or none.
    /// - Throws: whatever keeps the store from writing; the saving context keeps its changes.
    func save(_ request: DataStoreSaveChangesRequest<Self.Snapshot>) throws -> DataStoreSaveChangesResult<Self.Snapshot>
    /// Removes every model the store holds.
    /// - Throws: whatever keeps the store from writing.
    func erase() throws
    /// Snapshots the store keeps in memory for the given models, for contexts that share them.
    /// - Throws: whatever keeps the store from reading.
    func cachedSnapshots(
        for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState
    ) throws -> [PersistentIdentifier: Self.Snapshot]
    /// A context with this editing state started using the store.
    func initializeState(for editingState: EditingState)
    /// A context with this editing state stopped using the store.
    func invalidateState(for editingState: EditingState)
}

extension DataStore {
    /// Counts the models ``fetch(_:)`` returns for the request.
    public func fetchCount<T: PersistentModel>(_ request: DataStoreFetchRequest<T>) throws -> Int {
        try fetch(request).fetchedSnapshots.count
    }

    /// The identifiers of the models ``fetch(_:)`` returns for the request.
    public func fetchIdentifiers<T: PersistentModel>(
        _ request: DataStoreFetchRequest<T>
    ) throws -> [PersistentIdentifier] {
        try fetch(request).fetchedSnapshots.map(\.persistentIdentifier)
    }

    /// Removes every model: fetches each entity's snapshots and saves them as deleted, in one save.
    public func erase() throws {
        var deleted: [Snapshot] = []
        for entity in schema.entities {
            deleted += try Self.allSnapshots(of: entity.modelType, in: self)
        }
        guard !deleted.isEmpty else { return }
        _ = try save(
            DataStoreSaveChangesRequest(editingState: EditingState(), inserted: [], updated: [], deleted: deleted))
    }

    private static func allSnapshots<T: PersistentModel>(of type: T.Type, in store: Self) throws -> [Snapshot] {
        try store.fetch(DataStoreFetchRequest(descriptor: FetchDescriptor<T>(), editingState: EditingState()))
            .fetchedSnapshots
    }

    /// No snapshots are kept in memory.
    public func cachedSnapshots(
        for persistentIdentifiers: [PersistentIdentifier], editingState: EditingState
    ) throws -> [PersistentIdentifier: Snapshot] {
        [:]
    }

    /// Does nothing: the store keeps no state per context.
    public func initializeState(for editingState: EditingState) {}

    /// Does nothing: the store keeps no state per context.
    public func invalidateState(for editingState: EditingState) {}
}

/// A store that deletes many models at once without reading them first.
public protocol DataStoreBatching: DataStore {
    /// Deletes the models a request selects.
    /// - Throws: whatever keeps the store from writing.
    func delete<T: PersistentModel>(_ request: DataStoreBatchDeleteRequest<T>) throws
}

/// The state of the context a request comes from: which context it is, and who edits through it.
public struct EditingState: Sendable, Identifiable {
    /// The context's identity.
    public let id: UUID
    /// The context's `author`, recorded with what it saves.
    public var author: String?

    package init(id: UUID = UUID(), author: String? = nil) {
        self.id = id
        self.author = author
    }
}

/// Why a custom store didn't answer a request.
public enum DataStoreError: Error, Hashable, Sendable {
    /// The store can't run the request's predicate (the container refuses the fetch).
    case invalidPredicate
    /// The store prefers the container to judge the predicate: the container fetches every model of the entity
    /// again, without predicate or sort, and filters and sorts in memory.
    case preferInMemoryFilter
    /// The store prefers the container to sort: the container fetches again without sort descriptors and sorts in
    /// memory.
    case preferInMemorySort
    /// The store doesn't do what was asked.
    case unsupportedFeature
}
