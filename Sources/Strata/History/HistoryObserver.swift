import Foundation
import Observation

/// Watches a container's store for new history transactions — saved by any context of this process, another
/// container on the same file, or another process — and reports the relevant ones: `eventCounter` (observable)
/// moves, and ``transactions`` streams them.
///
/// ```swift
/// let observer = try HistoryObserver(observedModels: [Trip.self], modelContainer: container)
/// for await transaction in observer.transactions {
///     for change in transaction.changes { … }
/// }
/// ```
///
/// The observer belongs to the actor it is created on (`isolation`, the caller's by default; the main actor when
/// created outside any). It is fed by the container's live-change pipeline, on every store: saves in this process
/// announce themselves, and commits by other connections, processes and machines arrive through the store's
/// commit watcher (`ExternalChangeMonitor`: SQLite's data version polled every 10 ms, PostgreSQL's `LISTEN`/`NOTIFY`
/// or its polling fallback) while any observer is alive. Each notice that concerns its models reads the history
/// after the observer's token, so nothing is missed between notices and nothing is reported twice — on PostgreSQL
/// including a save that commits after a newer one was read (its identifier was taken when it started).
///
/// When the history after the observer's token was deleted (`deleteHistory`), the observer moves its token to
/// the newest transaction and moves `eventCounter` once, without transactions: reload what you show.
@Observable
public final class HistoryObserver {
    /// The container whose store the observer watches.
    @ObservationIgnored public let modelContainer: ModelContainer
    /// The model classes whose changes are relevant; empty means every change is.
    @ObservationIgnored public let observedModels: [any PersistentModel.Type]
    /// The authors whose transactions are relevant; empty means every author's (and none) are.
    @ObservationIgnored public let authors: Set<String>
    /// Counts the times relevant transactions (or an expired token) were found.
    public private(set) var eventCounter = 0
    /// The observer's position in each store's history, by store identifier: the newest transaction it has read.
    public var historyTokens: [String: any HistoryToken] {
        token.map { [$0.storeIdentifier: $0] } ?? [:]
    }

    @ObservationIgnored private var token: DefaultHistoryToken?
    /// Which transactions the observer has reported: on PostgreSQL a save takes its identifier when it starts, so a
    /// transaction may commit after a newer one was read, and reading only past ``token`` would miss it.
    @ObservationIgnored private var cursor = HistoryCursor(handledThrough: 0)
    @ObservationIgnored private let context: ModelContext
    @ObservationIgnored private let entityNames: Set<String>
    @ObservationIgnored private var continuations: [AsyncStream<DefaultHistoryTransaction>.Continuation] = []
    @ObservationIgnored private var subscription: UInt64?

    /// Creates an observer of the container's history after `historyTokens` (keyed by store identifier; `nil`
    /// starts after the newest transaction now).
    ///
    /// - Throws: `StrataError.unknownEntity` for an observed model outside the container's schema,
    ///   `StrataError.storeFailure` when the store's history can't be read.
    public convenience init(
        historyTokens: [String: any HistoryToken]? = nil, observedModels: [any PersistentModel.Type] = [],
        authors: Set<String> = [], modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            tokens: historyTokens, observedModels: observedModels, authors: authors,
            modelContainer: modelContainer, actor: isolation ?? MainActor.shared)
    }

    private init(
        tokens: [String: any HistoryToken]?, observedModels: [any PersistentModel.Type], authors: Set<String>,
        modelContainer: ModelContainer, actor: any Actor
    ) throws {
        let store = modelContainer.store
        var names: Set<String> = []
        for type in observedModels {
            guard let entity = store.schema.entity(forType: type) else {
                throw StrataError.unknownEntity(String(describing: type))
            }
            names.insert(entity.name)
        }
        self.modelContainer = modelContainer
        self.observedModels = observedModels
        self.authors = authors
        self.entityNames = names
        self.context = ModelContext(modelContainer)
        // Subscribe first, so a save between reading the position and subscribing is still noticed.
        let watched = names.isEmpty ? Set(store.schema.entities.map(\.name)) : names
        subscription = modelContainer.liveChanges.subscribe(self, entityNames: watched, store: store, actor: actor)
        if let given = tokens?[store.identifier] as? DefaultHistoryToken {
            token = given
        } else {
            token = try Self.newestToken(of: store)
        }
        // Identifiers start at 1, so with no history yet every transaction is new.
        cursor = HistoryCursor(handledThrough: token?.transactionIdentifier ?? 0)
    }

    deinit {
        if let subscription { modelContainer.liveChanges.unsubscribe(subscription) }
        for continuation in continuations { continuation.finish() }
    }

    /// The relevant transactions committed after the observer's position, as they are noticed. Each access
    /// starts a new stream; streams end when the observer is freed.
    public var transactions: AsyncStream<DefaultHistoryTransaction> {
        let (stream, continuation) = AsyncStream<DefaultHistoryTransaction>.makeStream()
        continuations.append(continuation)
        return stream
    }

    /// Reads the history after the observer's token and reports what is relevant.
    private func readNewTransactions() {
        var descriptor = HistoryDescriptor<DefaultHistoryTransaction>()
        if let through = cursor.handledThrough {
            let after = DefaultHistoryToken(
                storeIdentifier: modelContainer.store.identifier, transactionIdentifier: through)
            descriptor.predicate = #Predicate { $0.token > after }
        }
        let read: [DefaultHistoryTransaction]
        do {
            read = try context.fetchHistory(descriptor)
        } catch SwiftDataError.historyTokenExpired {
            token = try? Self.newestToken(of: modelContainer.store)
            cursor.restart(after: token?.transactionIdentifier ?? 0)
            eventCounter += 1
            return
        } catch {
            // A failed read (the file busy for longer than the timeout) is retried at the next notice.
            return
        }
        let found = read.filter { !cursor.hasHandled($0.token.transactionIdentifier) }
        cursor.markHandled(read.map(\.token.transactionIdentifier))
        guard let newest = found.map(\.token).max() else { return }
        if token.map({ newest > $0 }) ?? true { token = newest }
        let relevant = found.filter(isRelevant)
        guard !relevant.isEmpty else { return }
        eventCounter += 1
        continuations.removeAll { continuation in
            relevant.contains { transaction in
                if case .terminated = continuation.yield(transaction) { return true }
                return false
            }
        }
    }

    private func isRelevant(_ transaction: DefaultHistoryTransaction) -> Bool {
        if !authors.isEmpty, !authors.contains(transaction.author ?? "") { return false }
        if entityNames.isEmpty { return true }
        return transaction.changes.contains { entityNames.contains($0.changedPersistentIdentifier.entityName) }
    }

    /// The token of the store's newest transaction; `nil` when it has none.
    private static func newestToken(of store: any PersistentStore) throws -> DefaultHistoryToken? {
        var request = StoreHistoryFetch(order: .transaction(ascending: false), limit: 1)
        request.includesChanges = false
        return try store.fetchHistory(request).first.map {
            DefaultHistoryToken(storeIdentifier: store.identifier, transactionIdentifier: $0.identifier)
        }
    }
}

extension HistoryObserver: LiveChangeSubscriber {
    package func receiveStoreChanges(_ event: StoreChangeEvent) {
        readNewTransactions()
    }
}
