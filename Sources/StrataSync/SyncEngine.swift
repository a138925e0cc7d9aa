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

    private let container: ModelContainer
    private let entities: [SyncedEntity]
    private let entitiesByName: [String: SyncedEntity]
    private let hub: SyncHub
    /// The links the device and the hub last agreed on, when a model has relationships synced as links.
    private let linkBase: SyncLinkBase?
    /// Where the device's sync stands; keep ``State/serialization`` after each send and fetch.
    public private(set) var state: State

    /// The author of the saves a push makes on the hub: the device, so its own fetches skip them.
    private var pushAuthor: String { "strata.sync.device:\(state.deviceIdentifier.uuidString)" }

    /// Opens the hub (creating its tables when it is new) and checks that every model can be synced.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` for a model without a sync identity,
    ///   ``SyncError/stateOfAnotherStore(expected:found:)``, ``SyncError/hubUnavailable(operation:reason:)``.
    public init(_ configuration: Configuration) throws {
        container = configuration.container
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
        hub = try SyncHub(schema: configuration.container.schema, configuration: configuration.hub)
        try hub.register(device: state.deviceIdentifier)
    }

    // MARK: - Sending

    /// Sends every change the local store's history recorded since the last send (other than what fetches
    /// saved) to the hub, in batches, each applied in one hub transaction exactly once: a batch sent again after
    /// a lost acknowledgement or a crash changes nothing.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)``; the changes not sent stay pending.
    public func sendChanges() async throws {
        while let batch = try nextBatch() {
            if try send(batch), let linkBase {
                // A batch applied before (its acknowledgement lost) leaves the base as it was: what it sent is
                // unknown, and the links changed since must still differ from the base to be sent.
                for (link, targets) in batch.linkBases { try linkBase.replace(link, with: targets) }
            }
            state.lastSentTransaction = batch.through
        }
    }

    /// A run of local history transactions to send together: the newest one's identifier, the changes, and the
    /// links they bring the hub to (the new base of those links once the hub applied them).
    private struct Batch {
        var through: Int64
        var changes: [String: SyncedChanges]
        var linkBases: [(SyncedEntity.Link, [Int64: Set<Int64>])] = []
    }

    /// The most local history transactions one batch carries.
    static let batchTransactionLimit = 200

    /// The next batch of local changes after the last one sent, or `nil` when none is pending.
    private func nextBatch() throws -> Batch? {
        guard let history = try localHistory(limit: Self.batchTransactionLimit) else { return nil }
        let context = ModelContext(container)
        var batch = Batch(
            through: history.through,
            changes: try history.changes(of: entities, in: context) { _, changed in Array(changed) })
        if let links = try localLinkChanges(history) {
            for (name, edits) in try links.edits(entities: entitiesByName, in: context) {
                batch.changes[name, default: SyncedChanges()].links += edits
            }
            batch.linkBases = links.relationships.map { ($0.link, $0.now) }
        }
        return batch
    }

    /// The links `history` changed in the local store, beside their base; `nil` when no model has links.
    private func localLinkChanges(_ history: SyncedHistory) throws -> LocalLinkChanges? {
        guard let linkBase else { return nil }
        return try LocalLinkChanges(history, entities: entities, store: linkBase.store, base: linkBase)
    }

    /// Reads the local history after the last send (at most `limit` transactions), other than fetches' saves; `nil`
    /// when there is none.
    private func localHistory(limit: Int?) throws -> SyncedHistory? {
        let transactions = try container.store.fetchHistory(
            StoreHistoryFetch(conditions: [.transaction(.greater, state.lastSentTransaction)], limit: limit))
        guard !transactions.isEmpty else { return nil }
        return SyncedHistory(transactions, entities: entitiesByName) { $0.author != Self.fetchAuthor }
    }

    /// Applies a batch on the hub in one transaction that also moves the device's mark past it; a batch the mark
    /// is already past was applied before and is skipped.
    /// - Returns: whether this call applied the batch.
    private func send(_ batch: Batch) throws -> Bool {
        guard !batch.changes.isEmpty, let first = entities.first else { return true }
        let context = ModelContext(hub.container)
        context.author = pushAuthor
        context.mergePolicy = .mergeByPropertyObjectTrump
        do {
            try SyncApplication.apply(batch.changes, of: entities, to: context)
            try context.save(
                requiring: [
                    hub.markCondition(device: state.deviceIdentifier, through: batch.through, entity: first.entity)
                ])
            return true
        } catch is StoreSaveConditionUnmet {
            // Applied by an earlier send whose acknowledgement was lost.
            return false
        } catch {
            throw SyncError.hubUnavailable(operation: "apply this device's changes", reason: "\(error)")
        }
    }

    // MARK: - Fetching

    /// Brings in what other devices and server code saved on the hub since the last fetch (the first fetch reads
    /// every row), saving it in the local store as ``fetchAuthor``: live results and history observers on the
    /// device see it; ``sendChanges()`` doesn't send it back. A property changed locally and not yet sent keeps
    /// its local value (it wins when sent); a row deleted locally and not yet sent stays deleted.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)``; nothing was saved locally then.
    public func fetchChanges() async throws {
        let hubContext = ModelContext(hub.container)
        var changes: [String: SyncedChanges] = [:]
        let snapshot: String
        do {
            if let previous = state.fetchedSnapshot {
                let committed = try hub.transactions(committedAfter: previous, excludingAuthor: pushAuthor)
                snapshot = committed.snapshot
                changes = try hubChanges(of: committed.identifiers, in: hubContext)
            } else {
                // Taken before the rows are read, so whatever commits later is in the next fetch.
                snapshot = try hub.snapshot()
                for synced in entities {
                    let rows = try synced.allRows(in: hubContext)
                    if !rows.isEmpty { changes[synced.entity.name] = SyncedChanges(rows: rows) }
                    guard !synced.links.isEmpty else { continue }
                    let owners = try hubContext.storedModels(of: synced.entity, where: nil).compactMap {
                        $0.persistentBackingData.primaryKey
                    }
                    for link in synced.links.values {
                        changes[synced.entity.name, default: SyncedChanges()].links += try synced.currentLinkEdits(
                            link, owners: owners, store: hub.store, entities: entitiesByName, in: hubContext)
                    }
                }
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(operation: "read the changes to fetch", reason: "\(error)")
        }
        let context = ModelContext(container)
        context.author = Self.fetchAuthor
        context.mergePolicy = .mergeByPropertyStoreTrump
        let localHistory = try localHistory(limit: nil)
        let pending = try pendingLocalChanges(localHistory, in: context)
        if let localHistory, let links = try localLinkChanges(localHistory) {
            keepPendingLinks(try links.identityLinks(entities: entitiesByName, in: context), in: &changes)
        }
        if state.fetchedSnapshot == nil {
            // The first fetch reads rows, not history: a row sent from here and gone from the hub was deleted there.
            for synced in entities {
                let onHub = Set(changes[synced.entity.name]?.rows.map(\.identity) ?? [])
                let here = try synced.allRows(in: context, attributes: []).map(\.identity)
                let gone = here.filter { !onHub.contains($0) && pending[synced.entity.name]?[$0] == nil }
                if !gone.isEmpty { changes[synced.entity.name, default: SyncedChanges()].deletedIdentities += gone }
            }
        }
        let bases = try SyncApplication.apply(changes, of: entities, to: context, keeping: pending)
        try context.save()
        try recordLinkBases(bases)
        state.fetchedSnapshot = snapshot
    }

    /// Adds to each fetched set of links what the device added and not yet sent, and takes out what it removed:
    /// the device's pending links win until it sends them, as its pending property values do.
    private func keepPendingLinks(
        _ pending: [String: (added: Set<IdentityLink>, removed: Set<IdentityLink>)],
        in changes: inout [String: SyncedChanges]
    ) {
        guard !pending.isEmpty else { return }
        for synced in entities where !synced.links.isEmpty {
            guard var edits = changes[synced.entity.name]?.links else { continue }
            for position in edits.indices {
                guard let link = synced.links[edits[position].index], let table = pending[link.table] else {
                    continue
                }
                let owner = edits[position].owner
                edits[position].added += table.added.compactMap { $0.target(ofOwner: owner, through: link) }
                edits[position].removed += table.removed.compactMap { $0.target(ofOwner: owner, through: link) }
            }
            changes[synced.entity.name]?.links = edits
        }
    }

    /// Makes the fetched sets of links the base of the device's next sends, once their models have keys.
    private func recordLinkBases(_ bases: [AppliedLinkBase]) throws {
        guard let linkBase, !bases.isEmpty else { return }
        var byLink: [String: (link: SyncedEntity.Link, targets: [Int64: Set<Int64>])] = [:]
        for base in bases {
            guard let owner = base.owner.persistentBackingData.primaryKey else { continue }
            let key = "\(base.link.table)|\(base.link.ownerIsFirst)"
            byLink[key, default: (base.link, [:])].targets[owner] = Set(
                base.targets.compactMap { $0.persistentBackingData.primaryKey })
        }
        for (link, targets) in byLink.values { try linkBase.replace(link, with: targets) }
    }

    /// The changes the hub's history transactions `identifiers` made, as rows now and deleted identities.
    private func hubChanges(of identifiers: [Int64], in context: ModelContext) throws -> [String: SyncedChanges] {
        guard let first = identifiers.first, let last = identifiers.last else { return [:] }
        let wanted = Set(identifiers)
        let transactions = try hub.store.fetchHistory(
            StoreHistoryFetch(conditions: [.transaction(.greaterOrEqual, first), .transaction(.lessOrEqual, last)]))
        let history = SyncedHistory(transactions, entities: entitiesByName) { wanted.contains($0.identifier) }
        // A row's every property is read: what the hub holds now wins over what this device fetched before.
        var changes = try history.changes(of: entities, in: context) { synced, _ in synced.propertyIndexes }
        for synced in entities {
            for link in synced.links.values {
                let edits = try synced.currentLinkEdits(
                    link, owners: synced.owners(of: link, changedIn: history), store: hub.store,
                    entities: entitiesByName, in: context)
                if !edits.isEmpty { changes[synced.entity.name, default: SyncedChanges()].links += edits }
            }
        }
        return changes
    }

    /// What the local store changed and has not sent yet, by entity and identity: the properties changed (to be
    /// kept over fetched values), or `nil` for a row deleted.
    private func pendingLocalChanges(
        _ history: SyncedHistory?, in context: ModelContext
    ) throws -> [String: [StoredValue: Set<Int>?]] {
        guard let history else { return [:] }
        var pending: [String: [StoredValue: Set<Int>?]] = [:]
        for synced in entities {
            let name = synced.entity.name
            for identity in history.deleted[name] ?? [] { pending[name, default: [:]][identity] = .some(nil) }
            guard let keys = history.changedKeys[name] else { continue }
            for (key, identity) in try synced.identities(ofKeys: Array(keys.keys), in: context)
            where pending[name]?[identity] == nil {
                pending[name, default: [:]][identity] = .some(keys[key] ?? [])
            }
        }
        return pending
    }
}
