import Foundation

/// Notices commits made to the store's file by other connections — other containers on the file, other
/// processes — by polling SQLite's `PRAGMA data_version` on the store's own connection.
///
/// `data_version` changes only when *another* connection commits, so this store's own saves wake nobody. A poll
/// is one pragma under the store's lock, about 9 µs; at one every ``commitPollInterval`` (10 ms) that is under
/// 0.1 % of a core, and only while something observes. `strata-bench` workload 17a ("another process saved →
/// observer published", 100 observers over 100,000 rows) measures a median of 5.5–7.6 ms with it: half an
/// interval of waiting on average, plus reading the history and the incremental refresh. A shorter interval
/// would only trim the wait, which the 20 ms target doesn't need.
///
/// Polling was kept over waiting on the `-wal` file with inotify: the wait would save the half interval, but it
/// is Linux-only, needs a descriptor per store, must follow the `-wal` file being deleted and created again as
/// connections close and open, misses rollback-journal writers and network file systems, and so would still need
/// this poll behind it.
extension SQLiteStore {
    /// How often the store's data version is read while a watcher runs.
    package static let commitPollInterval: Duration = .milliseconds(10)

    /// The history transactions this store wrote while watched; `nil` in memory, where nobody else writes.
    package var writtenTransactions: StoreWrittenTransactions? { path == nil ? nil : ownTransactions }

    /// Starts a thread polling the data version (a file store only; nobody else can write an in-memory one).
    ///
    /// The poll runs on a thread of its own rather than in a task, so it keeps its pace when the cooperative thread
    /// pool is busy with long synchronous work.
    package func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool {
        guard path != nil, watchers.begin() else { return false }
        // Read now, not on the thread, so a commit made before the thread first runs is still noticed. The first
        // read of the history stops at the same snapshot: what comes after moves the version and is read then.
        let initial = historySnapshot()
        ownTransactions.beginTracking()
        let interval = Self.commitPollInterval
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [self] in
            defer {
                ownTransactions.endTracking()
                watchers.end()
            }
            StoreWatchers.nameCurrentThread("strata-sqlite")
            observer.storeDidCommit(.resumed(newest: initial?.newest))
            var version = initial?.version
            while true {
                Thread.sleep(forTimeInterval: seconds)
                guard observer.keepsWatching, !watchers.isStopping else { return }
                // A failed read (the file locked for longer than the busy timeout) is retried next time.
                guard let current = try? withConnection({ try $0.dataVersion() }), current != version else { continue }
                // The version again with the newest history transaction, from one snapshot: the reader reads up
                // to it, so each history transaction is read at the notice of the version it moved.
                let snapshot = historySnapshot()
                version = snapshot?.version ?? current
                observer.storeDidCommit(.committed(newest: snapshot?.newest))
            }
        }
        thread.name = "Strata.SQLiteCommitWatcher"
        thread.start()
        return true
    }

    /// The data version with the newest history transaction, read in one snapshot; `nil` when it can't be read.
    private func historySnapshot() -> (newest: Int64?, version: Int64)? {
        try? withConnection { connection in
            try connection.transaction { (Self.newestHistoryTransaction(connection), try connection.dataVersion()) }
        }
    }

    /// The identifier of the newest history transaction, 0 for an empty history; `nil` without history tables.
    private static func newestHistoryTransaction(_ connection: SQLiteConnection) -> Int64? {
        // A store without the tables fails the query: nothing is known.
        let rows = try? connection.query(HistoryTables.newestTransactionQuery)
        guard case .integer(let newest)? = rows?.first?.first else { return nil }
        return newest
    }
}
