import Foundation

/// Notices commits made to a store file by other processes (or other containers on the same file) by polling
/// SQLite's `PRAGMA data_version` on the store's own connection.
///
/// `data_version` changes only when *another* connection commits, so this container's own saves (already
/// announced by `ModelContext.save()`) are not reported twice. A poll is one pragma under the store's lock:
/// about 9 µs, every `pollInterval` (under 0.02 % of a core), and only while some `ResultsObserver` is alive.
/// A commit is seen within one interval — measured 26–54 ms from commit to refreshed results — and delivered as
/// `StoreChangeEvent.external`. Polling was chosen over inotify on the `-wal` file because it is portable, needs
/// no file descriptors, and also sees commits of rollback-journal writers.
///
/// Blind spot: a change is only known to have happened, not what it touched, so every observer of the
/// container refreshes and reloads its registered models from the store.
package enum ExternalChangeMonitor {
    /// How often the store's data version is read.
    package static let pollInterval: Duration = .milliseconds(50)

    /// Whether `store` can change behind the container's back (a file store).
    static func canMonitor(_ store: any DataStore) -> Bool {
        (store as? SQLiteStore)?.path != nil
    }

    /// Polls `store` until `center` has no subscribers left (or is freed).
    ///
    /// The poll runs on a thread of its own rather than in a task, so it keeps its pace when the cooperative
    /// thread pool is busy with long synchronous work.
    static func start(_ store: any DataStore, center: LiveChangeCenter) {
        guard let store = store as? SQLiteStore else { return }
        // Read now, not on the thread, so a commit made before the thread first runs is still noticed.
        let initialVersion = try? store.withConnection { try $0.dataVersion() }
        let seconds = Double(pollInterval.components.attoseconds) / 1e18 + Double(pollInterval.components.seconds)
        let thread = Thread { [weak center] in
            var version = initialVersion
            while true {
                Thread.sleep(forTimeInterval: seconds)
                guard let center, center.keepsMonitoringStore() else { return }
                // A failed read (the file is locked for longer than the busy timeout) is retried next time.
                guard let current = try? store.withConnection({ try $0.dataVersion() }) else { continue }
                if current != version {
                    version = current
                    center.post(.external)
                }
            }
        }
        thread.name = "Strata.ExternalChangeMonitor"
        thread.start()
    }
}
