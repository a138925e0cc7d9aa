import Foundation

/// Notices commits made to the store's file by other connections — other containers on the file, other
/// processes — by reading SQLite's `PRAGMA data_version` on the store's own connection when the store's files are
/// written (``SQLiteFileChangeSignal``), and at least every ``commitPollInterval``.
///
/// `data_version` changes only when *another* connection commits, so this store's own saves wake nobody (their
/// writes cost one read of the version). A read is one pragma under the store's lock, about 9 µs. Without file
/// events a commit waited for the next poll, half an interval on average: `strata-bench` workload 17a ("another
/// process saved → observer published") measured a median of 5.5–7.6 ms, nearly all of it that wait.
extension SQLiteStore {
    /// How often the store's data version is read while a watcher runs, whether or not a file event woke it.
    package static let commitPollInterval: Duration = .milliseconds(10)

    /// How soon the version is first read again after a file event that found it unchanged, each later read
    /// waiting twice as long up to ``commitPollInterval``: a WAL commit is visible only once the writer has updated
    /// the shared-memory index, after the write that raised the event (soon after, unless the writer is descheduled
    /// on a busy machine or syncs the WAL file first).
    package static let commitRecheckDelay: Duration = .microseconds(250)

    /// The history transactions this store wrote while watched; `nil` in memory, where nobody else writes.
    package var writtenTransactions: StoreWrittenTransactions? { path == nil ? nil : ownTransactions }

    /// Starts a thread reading the data version when the store's files are written and at every poll interval (a
    /// file store only; nobody else can write an in-memory one).
    ///
    /// The watcher runs on a thread of its own rather than in a task, so it keeps its pace when the cooperative
    /// thread pool is busy with long synchronous work.
    package func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool {
        guard path != nil, watchers.begin() else { return false }
        // Read now, not on the thread, so a commit made before the thread first runs is still noticed. The first
        // read of the history stops at the same snapshot: what comes after moves the version and is read then.
        let initial = historySnapshot()
        ownTransactions.beginTracking()
        let signal = path.flatMap { SQLiteFileChangeSignal(storePath: $0) }
        let thread = Thread { [self] in
            defer {
                ownTransactions.endTracking()
                watchers.end()
            }
            StoreWatchers.nameCurrentThread("strata-sqlite")
            observer.storeDidCommit(.resumed(newest: initial?.newest))
            var version = initial?.version
            // After a file event that found the version unchanged: the next, shorter wait.
            var recheck: Duration?
            while true {
                let timeout = recheck ?? Self.commitPollInterval
                let ownCommits = ownTransactions.notedCount
                let written = signal?.wait(timeout: timeout) ?? Self.sleep(for: timeout)
                guard observer.keepsWatching, !watchers.isStopping else { return }
                // A failed read (the file locked for longer than the busy timeout) is retried next time.
                guard let current = try? withConnection({ try $0.dataVersion() }), current != version else {
                    // A write of this store's own save asks for no recheck: the poll still catches another
                    // connection's commit that fell in the same wait.
                    let ownWrite = ownTransactions.notedCount != ownCommits
                    recheck = written && !ownWrite ? Self.commitRecheckDelay : recheck.flatMap(Self.doubled)
                    continue
                }
                recheck = nil
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

    /// The recheck after `previous` found the version unchanged again: twice as long, or `nil` (back to the poll
    /// interval) once that reaches the interval.
    private static func doubled(_ previous: Duration) -> Duration? {
        let next = previous * 2
        return next < commitPollInterval ? next : nil
    }

    /// Sleeps for `duration`, where no file event can wake the watcher earlier.
    /// - Returns: `false`: no write was seen.
    private static func sleep(for duration: Duration) -> Bool {
        Thread.sleep(
            forTimeInterval: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        return false
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
