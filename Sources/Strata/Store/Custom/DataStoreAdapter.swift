import Foundation

/// Runs a third-party ``DataStore`` as one of the container's stores: contexts ask it in Strata's terms (row keys,
/// translated conditions, `StoreChanges`), and it asks the store in SwiftData's (fetch requests, snapshots).
///
/// It keeps the store's models in memory (``CustomStoreImage``): a fetch from the app first asks the store with the
/// app's descriptor — the store filters and sorts, or throws `preferInMemoryFilter` / `preferInMemorySort` and the
/// adapter reads the entity's models whole — then judges the fetch's condition, order, limit and offset over the
/// image, with the same `QueryEvaluator` that judges unsaved models, so results match SQLite's. A save is sent as
/// one `DataStoreSaveChangesRequest` and reaches the image only once the store has written it.
final class DataStoreAdapter<Store: DataStore>: PersistentStore, @unchecked Sendable {
    // `@unchecked`: the store and the image are only reached under `lock`.
    let store: Store
    let schema: Schema
    let identifier: String
    let isReadOnly = false
    let lock = NSRecursiveLock()
    var image = CustomStoreImage()
    /// Rows whose snapshot the store may still hold with a temporary identifier of a related model (the store
    /// remapped only the inserted models' own identifiers): sent again with every save until one succeeds.
    var staleReferences: Set<CustomStoreImage.RowID> = []
    var isClosed = false
    private(set) var erasures = 0

    /// Wraps an opened store.
    /// - Throws: `StrataError.storeOpenFailed` when the store's snapshots aren't ``DefaultSnapshot``s.
    init(_ store: Store, schema: Schema) throws {
        guard Store.Snapshot.self == DefaultSnapshot.self else {
            throw StrataError.storeOpenFailed(
                path: store.identifier,
                reason:
                    "\(Store.self) declares Snapshot = \(Store.Snapshot.self); Strata gives custom stores DefaultSnapshot"
            )
        }
        self.store = store
        self.schema = schema
        self.identifier = store.identifier
    }

    /// Runs `body` under the lock, refusing once the store is closed.
    func locked<R>(_ body: () throws -> R) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        guard !isClosed else { throw StrataError.storeClosed(path: identifier) }
        return try body()
    }

    /// The store's own error, as a Strata error naming the store and the operation.
    func storeError(_ error: any Error, operation: String) -> any Error {
        if error is StrataError || error is SwiftDataError { return error }
        return StrataError.storeFailure(operation: "\(operation) in \(Store.self) \(identifier)", reason: "\(error)")
    }

    // Strata's own history and commit watching: a custom store has neither. Its own history, when it is
    // `HistoryProviding`, is read through `fetchProvidedHistory`.

    func fetchHistory(_ request: StoreHistoryFetch) throws -> [StoredHistoryTransaction] { [] }

    func deleteHistory(_ request: StoreHistoryFetch) throws {}

    func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool { false }

    var runningWatcherCount: Int { 0 }
    /// A custom store's save commits by itself: `beforeCommit` runs before it is called.
    var holdsTransactionAroundBeforeCommit: Bool { false }

    var writtenTransactions: StoreWrittenTransactions? { nil }

    func close(waitingForWatchers: Bool) {
        lock.lock()
        defer { lock.unlock() }
        isClosed = true
    }

    func containerWasReleased() {}

    func eraseAllData() throws {
        try locked {
            do { try store.erase() } catch { throw storeError(error, operation: "erase") }
            image = CustomStoreImage()
            staleReferences = []
            erasures += 1
        }
    }

    var eraseCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return erasures
    }
}

extension DataStoreConfiguration {
    /// Opens this configuration's custom store for the container's schema (set as the configuration's when it has
    /// none), wrapped so contexts can use it.
    /// - Throws: what the store's initializer throws, or `StrataError.storeOpenFailed`.
    func openCustomStore(schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> any PersistentStore {
        var configuration = self
        if configuration.schema == nil { configuration.schema = schema }
        let store: Store
        do {
            store = try Store(configuration, migrationPlan: migrationPlan)
        } catch let error where error is StrataError || error is SwiftDataError {
            throw error
        } catch {
            throw StrataError.storeOpenFailed(path: name, reason: "\(Store.self) failed to open: \(error)")
        }
        return try DataStoreAdapter(store, schema: schema)
    }
}
