/// What a store's commit watcher noticed: the "detect" stage of live results across connections, processes and
/// machines. The history says what changed; a notice only says when to read it.
package enum StoreCommitNotice: Sendable, Equatable {
    /// Another connection committed (SQLite's `data_version` moved); `newest` is the newest history transaction
    /// read in the same snapshot as the version (0 for an empty history, `nil` when unknown). What it wrote is in
    /// the history up to `newest`, unless the writer recorded none (hand-written SQL, a store without history
    /// tables); a later transaction moves the version again.
    case committed(newest: Int64?)
    /// The history may hold transactions up to `newest` (a `NOTIFY` payload, or the newest identifier polled).
    case historyAdvanced(newest: Int64)
    /// The watcher started, or may have missed notices (it reconnected): the history says what happened meanwhile,
    /// up to `newest` when given (the transactions after it will be noticed: SQLite's starting snapshot).
    case resumed(newest: Int64? = nil)
}

/// Receives what a store's commit watcher notices. Called on the watcher's own thread, one notice at a time.
package protocol StoreCommitObserver: AnyObject, Sendable {
    /// Whether the watcher should go on. Read between notices, and at least every few hundred milliseconds while
    /// nothing happens; the watcher stops (closing what it opened) once it is `false`.
    var keepsWatching: Bool { get }
    /// Handles a notice.
    func storeDidCommit(_ notice: StoreCommitNotice)
}

extension PersistentStore {
    /// Starts a watcher of commits made by other containers, processes or machines, reporting to `observer` until
    /// its `keepsWatching` turns `false`. The default watches nothing (a store nobody else can write).
    /// - Returns: whether a watcher started.
    package func watchCommits(reportingTo observer: any StoreCommitObserver) -> Bool { false }

    /// The history transactions this store instance writes while a watcher runs, so the watcher's reader can leave
    /// out the saves this container's contexts announced themselves. `nil` for a store without a watcher.
    package var writtenTransactions: StoreWrittenTransactions? { nil }
}
