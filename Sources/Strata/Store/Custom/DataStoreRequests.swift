import Foundation

/// A fetch a container asks a custom ``DataStore`` to run.
public struct DataStoreFetchRequest<T: PersistentModel>: Sendable {
    /// What to fetch: the app's predicate, sort descriptors, limit and offset.
    public let descriptor: FetchDescriptor<T>
    /// The state of the fetching context.
    public let editingState: EditingState

    package init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}

/// What a custom ``DataStore`` answers a fetch with.
public struct DataStoreFetchResult<ModelType: PersistentModel, SnapshotType: DataStoreSnapshot>: Sendable {
    /// The descriptor the store answered.
    public let descriptor: FetchDescriptor<ModelType>
    /// The models the fetch selects, in the store's order.
    public let fetchedSnapshots: [SnapshotType]
    /// Models the fetched ones relate to, by identifier, which the container may use without fetching them.
    public let relatedSnapshots: [PersistentIdentifier: SnapshotType]

    /// Creates a fetch result.
    public init(
        descriptor: FetchDescriptor<ModelType>, fetchedSnapshots: [SnapshotType],
        relatedSnapshots: [PersistentIdentifier: SnapshotType] = [:]
    ) {
        self.descriptor = descriptor
        self.fetchedSnapshots = fetchedSnapshots
        self.relatedSnapshots = relatedSnapshots
    }
}

/// The changes a container asks a custom ``DataStore`` to write in one save.
public struct DataStoreSaveChangesRequest<SnapshotType: DataStoreSnapshot>: Sendable {
    /// The state of the saving context.
    public let editingState: EditingState
    /// New models, with temporary identifiers the store replaces (``DataStoreSaveChangesResult/remappedIdentifiers``).
    public let inserted: [SnapshotType]
    /// Changed models, each with all its values.
    public let updated: [SnapshotType]
    /// Deleted models.
    public let deleted: [SnapshotType]

    package init(editingState: EditingState, inserted: [SnapshotType], updated: [SnapshotType], deleted: [SnapshotType])
    {
        self.editingState = editingState
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }
}

/// What a custom ``DataStore`` answers a save with.
public final class DataStoreSaveChangesResult<T: DataStoreSnapshot>: Sendable {
    /// The identifier of the store that saved.
    public final let storeIdentifier: String
    /// The permanent identifier the store gave each inserted model, by its temporary identifier.
    public final let remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier]
    /// Snapshots of models the store changed while saving (values it computed), by identifier.
    public final let snapshotsToReregister: [PersistentIdentifier: T]

    /// Creates a save result.
    public init(
        for storeIdentifier: String, remappedIdentifiers: [PersistentIdentifier: PersistentIdentifier] = [:],
        snapshotsToReregister: [PersistentIdentifier: T] = [:]
    ) {
        self.storeIdentifier = storeIdentifier
        self.remappedIdentifiers = remappedIdentifiers
        self.snapshotsToReregister = snapshotsToReregister
    }
}

/// A batch delete a container asks a ``DataStoreBatching`` store to run.
public struct DataStoreBatchDeleteRequest<T: PersistentModel>: Sendable {
    /// Which models to delete.
    public let descriptor: FetchDescriptor<T>
    /// The state of the deleting context.
    public let editingState: EditingState

    package init(descriptor: FetchDescriptor<T>, editingState: EditingState) {
        self.descriptor = descriptor
        self.editingState = editingState
    }
}
