import Synchronization

/// The identifiers of the history transactions one store instance wrote while its commit watcher runs.
///
/// A store's own saves are announced to live results by the saving context; the history read after a notice
/// holds them too, and this set lets the reader leave them out instead of refreshing every observer twice. A
/// store notes an identifier only once nobody but its own connection can have read the transaction before
/// the note (SQLite: after commit, under the connection's lock; PostgreSQL: before commit, its identifiers never
/// being reused). At most ``capacity`` identifiers are kept while no reader takes them: past that the oldest are
/// dropped, and their saves are refreshed twice rather than held in memory without bound.
package final class StoreWrittenTransactions: Sendable {
    private struct State {
        var watchers = 0
        var identifiers: Set<Int64> = []
        var notedCount = 0
    }

    /// The most identifiers kept.
    package static let capacity = 4096
    private let state = Mutex(State())

    /// An empty set that notes nothing until ``beginTracking()``.
    package init() {}

    /// Starts noting identifiers (a watcher started); balanced by ``endTracking()``.
    package func beginTracking() {
        state.withLock { $0.watchers += 1 }
    }

    /// Stops noting identifiers once every watcher has ended, forgetting those noted.
    package func endTracking() {
        state.withLock { state in
            state.watchers = max(0, state.watchers - 1)
            if state.watchers == 0 { state.identifiers.removeAll() }
        }
    }

    /// Notes a transaction the store wrote, while a watcher runs.
    package func note(_ identifier: Int64) {
        state.withLock { state in
            guard state.watchers > 0 else { return }
            if state.identifiers.count >= Self.capacity, let oldest = state.identifiers.min() {
                state.identifiers.remove(oldest)
            }
            state.identifiers.insert(identifier)
            state.notedCount &+= 1
        }
    }

    /// How many transactions were noted so far: a watcher woken by a write to the store's files compares it with
    /// the count before its wait to tell the store's own commit from another connection's.
    package var notedCount: Int {
        state.withLock { $0.notedCount }
    }

    /// Whether the store wrote `identifier`, forgetting it (each transaction is read once).
    package func take(_ identifier: Int64) -> Bool {
        state.withLock { $0.identifiers.remove(identifier) != nil }
    }
}
