import Foundation
import Strata
import StrataPostgres

/// Syncs a device's local store with a hub: a PostgreSQL schema holding the same models, which every device (and
/// any server code using Strata) reads and writes. The device keeps working on its own store, offline if need be;
/// ``sendChanges()`` sends what its history recorded since the last send, ``fetchChanges()`` brings in what the
/// other devices and the server saved. Modelled on CloudKit's `CKSyncEngine`; <doc:SyncingWithPostgreSQL> says
/// where and why it differs.
///
/// ```swift
/// let engine = try SyncEngine(SyncEngine.Configuration(
///     container: container, hub: PostgresConfiguration(url: hubURL), stateSerialization: savedState))
/// try await engine.sendChanges()
/// try await engine.fetchChanges()
/// savedState = await engine.state.serialization
/// ```
public actor SyncEngine {
    /// The author of the saves a fetch makes in the local store, which ``sendChanges()`` never sends back.
    public static let fetchAuthor = "strata.sync"

    let container: ModelContainer
    let entities: [SyncedEntity]
    let entitiesByName: [String: SyncedEntity]
    /// The hub's configuration, opened on first use (so a device starts offline).
    private let hubConfiguration: PostgresConfiguration
    private var openedHub: SyncHub?
    /// The links the device and the hub last agreed on, when a model has relationships synced as links.
    let linkBase: SyncLinkBase?
    /// The app's resolver of conflicts (``SyncConflict/defaultResolution`` without one).
    let conflictResolver: (@Sendable (SyncConflict) -> SyncConflict.Resolution)?
    /// The engine's events, to every sequence ``events`` made.
    nonisolated let eventStreams = SyncEventStreams()
    /// What the engine reports about itself, observable on the main actor.
    public nonisolated let status = SyncStatus()
    /// What ``status`` is told next.
    var report = SyncStatus.Report()
    /// Wakes the automatic sync (finished when it doesn't run).
    nonisolated let wake: AsyncStream<Wake>.Continuation
    /// Wakes it when the polling interval passes.
    nonisolated let polling: Task<Void, Never>?
    var localObservation: ModelContainer.ChangeObservation?
    var hubObservation: ModelContainer.ChangeObservation?
    /// How long the automatic sync waits before trying again after a failure.
    var retryDelay: Duration?
    /// Where the device's sync stands; keep ``State/serialization`` after each send and fetch.
    public internal(set) var state: State

    /// The author of the saves a push makes on the hub: the device, so its own fetches skip them.
    var pushAuthor: String { "strata.sync.device:\(state.deviceIdentifier.uuidString)" }

    /// Checks that every model can be synced; the hub is opened when a send or fetch first needs it, so a device
    /// that starts offline keeps working.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` for a model without a sync identity,
    ///   ``SyncError/stateOfAnotherStore(expected:found:)``, ``SyncError/unsupportedLocalStore(reason:)``.
    public init(_ configuration: Configuration) throws {
        container = configuration.container
        conflictResolver = configuration.conflictResolver
        entities = try SyncedEntity.all(in: configuration.container.schema)
        entitiesByName = Dictionary(uniqueKeysWithValues: entities.map { ($0.entity.name, $0) })
        let storeIdentifier = configuration.container.store.identifier
        if let serialization = configuration.stateSerialization {
            guard serialization.storeIdentifier == storeIdentifier else {
                throw SyncError.stateOfAnotherStore(expected: storeIdentifier, found: serialization.storeIdentifier)
            }
            state = State(serialization)
        } else {
            state = State(newDeviceOf: storeIdentifier)
        }
        if entities.contains(where: { !$0.links.isEmpty }) {
            guard let store = configuration.container.store as? any SQLPersistentStore else {
                throw SyncError.unsupportedLocalStore(
                    reason: "its relationships kept in join tables need one SQLite or PostgreSQL store, "
                        + "not several configurations or a custom store")
            }
            linkBase = try SyncLinkBase(store: store)
        } else {
            linkBase = nil
        }
        hubConfiguration = configuration.hub
        let (wakes, wake) = AsyncStream<Wake>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.wake = wake
        guard configuration.automaticallySync else {
            polling = nil
            wake.finish()
            // The app sends and fetches by itself; the status still counts each local save as pending.
            Task { [weak self] in await self?.observeLocalChanges(automatically: false) }
            return
        }
        let interval = configuration.pollingInterval
        polling = Task {
            while !Task.isCancelled {
                wake.yield(.poll)
                try? await Task.sleep(for: interval)
            }
        }
        Task { [weak self] in
            await self?.observeLocalChanges(automatically: true)
            for await _ in wakes {
                guard let self else { return }
                await self.syncAutomatically()
            }
        }
    }

    deinit {
        polling?.cancel()
        wake.finish()
        eventStreams.finish()
    }

    /// The hub, opened (its tables created when it is new, this device registered) the first time it is needed.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)`` while it can't be reached.
    var hub: SyncHub {
        get throws {
            if let openedHub { return openedHub }
            let hub = try SyncHub(schema: container.schema, configuration: hubConfiguration)
            try hub.register(device: state.deviceIdentifier)
            openedHub = hub
            return hub
        }
    }

    /// The links `history` changed in the local store, beside their base; `nil` when no model has links.
    func localLinkChanges(_ history: SyncedHistory) throws -> LocalLinkChanges? {
        guard let linkBase else { return nil }
        return try LocalLinkChanges(history, entities: entities, store: linkBase.store, base: linkBase)
    }

    /// Reads the local history after `transaction` (the last one sent when `nil`; at most `limit` transactions),
    /// other than fetches' saves; `nil` when there is none.
    func localHistory(after transaction: Int64? = nil, limit: Int?) throws -> SyncedHistory? {
        let transactions = try container.store.fetchHistory(
            StoreHistoryFetch(
                conditions: [.transaction(.greater, transaction ?? state.lastSentTransaction)], limit: limit))
        guard !transactions.isEmpty else { return nil }
        return SyncedHistory(transactions, entities: entitiesByName) { $0.author != Self.fetchAuthor }
    }

    /// The changes the hub's history transactions `identifiers` made, as rows now and deleted identities.
    func hubChanges(
        of identifiers: [Int64], in context: ModelContext, links: Bool = true
    ) throws -> [String: SyncedChanges] {
        guard let first = identifiers.first, let last = identifiers.last else { return [:] }
        let wanted = Set(identifiers)
        let transactions = try hub.store.fetchHistory(
            StoreHistoryFetch(conditions: [.transaction(.greaterOrEqual, first), .transaction(.lessOrEqual, last)]))
        let history = SyncedHistory(transactions, entities: entitiesByName) { wanted.contains($0.identifier) }
        // A row's every property is read: what the hub holds now wins over what this device fetched before.
        var changes = try history.changes(of: entities, in: context)
        for synced in entities {
            // A row deleted and brought back since (a device kept its change to it) is read as it is now.
            let name = synced.entity.name
            guard let deleted = changes[name]?.deletedIdentities, !deleted.isEmpty else { continue }
            let present = try synced.models(withIdentities: deleted, in: context)
            guard !present.isEmpty else { continue }
            changes[name]?.deletedIdentities.removeAll { present[$0] != nil }
            let read = Set(changes[name]?.rows.map(\.identity) ?? [])
            let keys = present.filter { !read.contains($0.key) }.compactMap {
                $0.value.persistentBackingData.primaryKey
            }
            changes[name]?.rows += try synced.rows(withKeys: keys, in: context).map(\.row)
        }
        for synced in entities where links {
            for link in synced.links.values {
                let edits = try synced.currentLinkEdits(
                    link, owners: synced.owners(of: link, changedIn: history), store: hub.store,
                    entities: entitiesByName, in: context)
                if !edits.isEmpty { changes[synced.entity.name, default: SyncedChanges()].links += edits }
            }
        }
        return changes
    }

    /// Which side `conflict` keeps: the app's resolver's answer, or the default.
    func resolve(_ conflict: SyncConflict) -> SyncConflict.Resolution {
        conflictResolver?(conflict) ?? conflict.defaultResolution
    }
}
