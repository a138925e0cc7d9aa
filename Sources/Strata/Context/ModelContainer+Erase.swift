import Foundation

extension ModelContainer {
    /// Removes every model's data from the store: all rows, join rows and the persistent history (history tokens
    /// taken before then expire), and for SQLite the `-wal` log's content and the backups written before migrations.
    /// The container stays usable, as a freshly opened one; models registered in its contexts are then deleted
    /// (`isDeleted`), their unsaved changes dropped (unsaved inserts stay, to be saved into the empty store), and live
    /// results reload to empty.
    ///
    /// ```swift
    /// try container.erase()    // between tests, or "Reset all data"
    /// ```
    ///
    /// - Throws: `StrataError.readOnlyContainer` for `allowsSave: false`, `StrataError.storeClosed` after
    ///   ``close()``, `StrataError.storeFailure`; the store is then as it was.
    public func erase() throws {
        try throwingSwiftDataErrors {
            try store.eraseAllData()
            saveObservers.containerDidInvalidate(entityNames: Set(schema.entities.map(\.name)))
        }
    }

    /// Removes all persisted model data, as ``erase()`` does. SwiftData declares it without `throws`: a failure is
    /// kept in the main context's `autosaveError` when called on the main actor; call ``erase()`` to handle it.
    public func deleteAllData() {
        do {
            try erase()
        } catch {
            guard MainQueue.isCurrent, let context = lazyMainContext else { return }
            MainActor.assumeIsolated {
                context.autosaveError =
                    StrataError(error) ?? .storeFailure(operation: "delete all data", reason: "\(error)")
            }
        }
    }
}

extension ModelContext {
    /// Drops what the context knew of the store before it was erased: every registered model becomes deleted, its
    /// unsaved changes and the pending deletes go; unsaved inserts stay. Posts `didSave` with their identifiers
    /// under `NotificationKey.invalidatedAllIdentifiers`.
    func forgetErasedModels() {
        seenEraseCount = store.eraseCount
        var invalidated: [PersistentIdentifier] = []
        registry.forEachModel { _, model in
            invalidated.append(model.persistentModelID)
            model.persistentBackingData.state = .deletedAndSaved
            model.persistentBackingData.clearSavedValues()
        }
        registry.removeAll()
        changedModels.removeAll()
        deletedModels.removeAll()
        pendingBatchDeletes.removeAll()
        batchDeleteKeptKeys.removeAll()
        postSaveNotification(ModelContext.didSave, inserted: [], updated: [], deleted: [], invalidated: invalidated)
    }
}
