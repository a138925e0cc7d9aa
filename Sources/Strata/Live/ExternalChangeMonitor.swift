import Synchronization

/// Turns commits made elsewhere — another container on the same store, another process, another machine — into
/// the same `StoreChangeEvent`s a save in this process posts, by reading the store's persistent history.
///
/// The store's watcher (`PersistentStore.watchCommits(reportingTo:)`: SQLite reads its data version when its files
/// are written and at a poll interval, PostgreSQL `LISTEN`s for the `NOTIFY` each save sends, or polls the history
/// table) says *when*; the history says *what*.
/// On each notice the monitor reads the identifiers of the transactions after its position
/// (`HistoryCursor`), leaves out the ones this store wrote itself (`StoreWrittenTransactions`: their contexts
/// announced them), reads the changes of the rest, and posts one event naming every inserted, updated and deleted
/// row. Observers then take the incremental path of an in-process save, and contexts reload only the named
/// registered models.
///
/// It falls back to `StoreChangeEvent.external` (every observer refetches, every registered model reloads) when
/// the history can't say: a commit noticed with no new transaction (a writer recording no history, such as
/// hand-written SQL or the `sqlite3` shell), the position's history deleted (`historyTokenExpired`), more than
/// ``transactionLimit`` transactions at once, or a read that failed. More than ``rowLimit`` changed rows become
/// "these entities changed".
///
/// Blind spots: on PostgreSQL a writer that sends no `NOTIFY` (hand-written SQL; another instance in `.polling`
/// mode) is only seen with the next notice. On SQLite a commit recording no history read at the same notice as
/// one recording history is seen as the latter's rows only (the data version says that something committed, not
/// how many times).
package final class ExternalChangeMonitor: StoreCommitObserver, @unchecked Sendable {
    // `@unchecked` because `center` is only assigned in `init`; the rest is in `cursor`, a `Mutex`.
    /// The most new transactions read change by change; beyond, every observer refreshes.
    package static let transactionLimit = 1_000
    /// The most changed rows an event names; beyond, it names the entities.
    package static let rowLimit = 10_000

    private weak var center: LiveChangeCenter?
    private let store: any PersistentStore
    private let generation: UInt64
    private let cursor: Mutex<HistoryCursor>

    /// Starts watching `store` for `center` (whose `generation`-th watch this is), when the store has a watcher.
    /// - Returns: whether a watcher started.
    static func start(_ store: any PersistentStore, center: LiveChangeCenter, generation: UInt64) -> Bool {
        // Own saves are noted from now on, before the position is read, so none falls between.
        store.writtenTransactions?.beginTracking()
        defer { store.writtenTransactions?.endTracking() }
        let monitor = ExternalChangeMonitor(store: store, center: center, generation: generation)
        return store.watchCommits(reportingTo: monitor)
    }

    private init(store: any PersistentStore, center: LiveChangeCenter, generation: UInt64) {
        self.store = store
        self.center = center
        self.generation = generation
        cursor = Mutex(HistoryCursor(handledThrough: Self.newestTransaction(of: store)))
    }

    package var keepsWatching: Bool {
        center?.keepsMonitoringStore(generation: generation) ?? false
    }

    package func storeDidCommit(_ notice: StoreCommitNotice) {
        guard let center else { return }
        let confirmed: Bool
        var readThrough: Int64?
        switch notice {
        case .historyAdvanced(let newest):
            if cursor.withLock({ $0.hasHandled(through: newest) }) { return }
            // The notice of this store's own save, right after everything read: nothing to read (PostgreSQL
            // notifies every listener, the saving store's own too).
            if cursor.withLock({ $0.hasHandled(through: newest - 1) }), store.writtenTransactions?.take(newest) == true
            {
                cursor.withLock { $0.markHandled([newest]) }
                return
            }
            confirmed = false
        case .committed(let newest):
            // The read stops at the notice's snapshot: a transaction committed after it moves the version again and
            // is read at its own notice. Had this read taken it, that notice would find nothing new and could not
            // tell it from a commit recording no history.
            readThrough = newest
            confirmed = true
        case .resumed(let newest):
            readThrough = newest
            confirmed = false
        }
        if let event = newChanges(confirmed: confirmed, through: readThrough) { center.post(event) }
    }

    /// The event for the transactions after the position (up to `newest` when given), or `nil` when there is
    /// nothing to announce.
    private func newChanges(confirmed: Bool, through newest: Int64? = nil) -> StoreChangeEvent? {
        var request = cursor.withLock { $0.request }
        if let newest { request.conditions.append(.transaction(.lessOrEqual, newest)) }
        let found: [StoredHistoryTransaction]
        do {
            found = try store.fetchHistory(request)
        } catch StrataError.historyTokenExpired {
            let newest = Self.newestTransaction(of: store)
            cursor.withLock { $0.restart(after: newest) }
            return .external
        } catch {
            // Read again at the next notice; meanwhile observers refresh in full if a commit is certain.
            return confirmed ? .external : nil
        }
        let new = cursor.withLock { cursor in found.map(\.identifier).filter { !cursor.hasHandled($0) } }
        let written = store.writtenTransactions
        let foreign = new.filter { !(written?.take($0) ?? false) }
        guard !foreign.isEmpty else {
            cursor.withLock { $0.markHandled(new) }
            return confirmed ? .external : nil
        }
        guard foreign.count <= Self.transactionLimit else {
            cursor.withLock { $0.markHandled(new) }
            return .external
        }
        var changesRequest = StoreHistoryFetch(conditions: [
            .transaction(.greaterOrEqual, foreign.min()!),
            .transaction(.lessOrEqual, foreign.max()!),
        ])
        changesRequest.includesChanges = true
        let transactions: [StoredHistoryTransaction]
        do {
            let wanted = Set(foreign)
            transactions = try store.fetchHistory(changesRequest).filter { wanted.contains($0.identifier) }
        } catch {
            return confirmed ? .external : nil
        }
        cursor.withLock { $0.markHandled(new) }
        return event(for: transactions)
    }

    /// One event naming every row the transactions changed (entities the container's schema lacks are skipped).
    private func event(for transactions: [StoredHistoryTransaction]) -> StoreChangeEvent? {
        var inserted: [PersistentIdentifier] = []
        var updated: [PersistentIdentifier] = []
        var deleted: [PersistentIdentifier] = []
        var entityNames = Set<String>()
        let known = Set(store.schema.entities.map(\.name))
        for transaction in transactions {
            for change in transaction.changes where known.contains(change.entityName) {
                entityNames.insert(change.entityName)
                let identifier = PersistentIdentifier(
                    entityName: change.entityName, storeIdentifier: store.identifier, key: .permanent(change.primaryKey)
                )
                switch change.kind {
                case .insert: inserted.append(identifier)
                case .update: updated.append(identifier)
                case .delete: deleted.append(identifier)
                }
            }
        }
        guard !entityNames.isEmpty else { return nil }
        guard inserted.count + updated.count + deleted.count <= Self.rowLimit else { return .entities(entityNames) }
        return StoreChangeEvent(inserted: inserted, updated: updated, deleted: deleted, origin: nil)
    }

    /// The identifier of the store's newest history transaction; `nil` when it has none or can't be read.
    private static func newestTransaction(of store: any PersistentStore) -> Int64? {
        var request = StoreHistoryFetch(order: .transaction(ascending: false), limit: 1)
        request.includesChanges = false
        return (try? store.fetchHistory(request))?.first?.identifier
    }
}
