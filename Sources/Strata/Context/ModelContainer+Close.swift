import Foundation

extension ModelContainer {
    /// Closes the container: stops watching its store for changes made elsewhere (the SQLite poller, PostgreSQL's
    /// `LISTEN` thread and connection), waits for the fetches and saves in progress, writes out the SQLite log so
    /// the store file alone holds every row, and closes the store's files or connections. Models already read
    /// keep their values in memory; any later fetch or save through the container's contexts throws
    /// `StrataError.storeClosed`. Closing twice does nothing.
    ///
    /// A container that is released stops its watchers and checkpoints its store, so the file alone holds every
    /// row; models still referenced read through the store until the last of them goes, which closes it.
    ///
    /// ```swift
    /// try context.save()
    /// container.close()
    /// try FileManager.default.copyItem(at: storeURL, to: bundledURL)   // every row is in the file
    /// ```
    public func close() {
        if ownsStore { store.close(waitingForWatchers: true) }
    }

    /// Closes the container as ``close()`` does, waiting on a thread of its own so the caller's task does not hold
    /// a thread of Swift's cooperative pool while saves in progress finish and watchers stop.
    ///
    /// ```swift
    /// await container.shutdown()    // a server's graceful shutdown
    /// ```
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let thread = Thread { [self] in
                close()
                continuation.resume()
            }
            thread.name = "Strata.ContainerShutdown"
            thread.start()
        }
    }

    /// When the container is released while its main context is still in use (`let context = try
    /// ModelContainer(for: Item.self).mainContext`), hands the context a successor over the same store, which the
    /// context keeps alive as SwiftData's contexts keep their container; the store then stays open, its watchers
    /// running, until the context goes too. Returns whether it did.
    func handOverToMainContext() -> Bool {
        guard ownsStore, lazyMainContext != nil, !isKnownUniquelyReferenced(&lazyMainContext) else { return false }
        guard let context = lazyMainContext else { return false }
        context.adoptSuccessor(ModelContainer(succeeding: self, mainContext: context))
        return true
    }

    /// Releasing the container: the main context's pending autosave is saved when the release happens on the
    /// main actor (elsewhere the main actor's models can't be touched, and it is dropped), then the store's
    /// watchers stop and its log is written into the file.
    func closeOnRelease() {
        if MainQueue.isCurrent, let context = lazyMainContext {
            MainActor.assumeIsolated {
                if context.autosaveEnabled, context.hasChanges { context.saveBeforeRelease() }
            }
        }
        if ownsStore { store.containerWasReleased() }
    }
}
