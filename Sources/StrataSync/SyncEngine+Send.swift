import Strata

extension SyncEngine {
    /// Sends every change the local store's history recorded since the last send (other than what fetches
    /// saved) to the hub, in batches, each applied in one hub transaction exactly once: a batch sent again after
    /// a lost acknowledgement or a crash changes nothing.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)``; the changes not sent stay pending.
    public func sendChanges() async throws {
        try reporting(.send) {
            try sendPendingChanges()
            return 0
        }
    }

    private func sendPendingChanges() throws {
        // What the hub changed since the last fetch, read once for every batch of this send.
        var changedOnHub: ChangedOnHub?
        while let batch = try nextBatch(changedOnHub: &changedOnHub) {
            if try send(batch), let linkBase {
                // A batch applied before (its acknowledgement lost) leaves the base as it was: what it sent is
                // unknown, and the links changed since must still differ from the base to be sent.
                for (link, targets) in batch.linkBases { try linkBase.replace(link, with: targets) }
            }
            state.lastSentTransaction = batch.through
            eventStreams.send(.stateUpdate(state.serialization))
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

    /// The properties each row the hub changed since this device's last fetch had changed, by entity name and
    /// identity.
    private typealias ChangedOnHub = [String: [StoredValue: Set<Int>]]

    /// The next batch of local changes after the last one sent, or `nil` when none is pending; `changedOnHub` is
    /// read on first need.
    private func nextBatch(changedOnHub: inout ChangedOnHub?) throws -> Batch? {
        guard let history = try localHistory(limit: Self.batchTransactionLimit) else { return nil }
        let context = ModelContext(container)
        var batch = Batch(
            through: history.through,
            changes: try history.changes(of: entities, in: context))
        if let links = try localLinkChanges(history) {
            for (name, edits) in try links.edits(entities: entitiesByName, in: context) {
                batch.changes[name, default: SyncedChanges()].links += edits
            }
            batch.linkBases = links.relationships.map { ($0.link, $0.now) }
        }
        // A target the hub lacks is sent along only when this device inserted it after the batch: one it had
        // received, or sent before, and the hub lacks was deleted there.
        var insertedLater: [String: Set<Int64>]?
        do {
            try ReferencedRows.add(
                to: &batch.changes, of: entitiesByName, from: context, missingIn: ModelContext(hub.container)
            ) { name, key in
                if insertedLater == nil {
                    insertedLater = try localHistory(after: history.through, limit: nil)?.insertedKeys ?? [:]
                }
                return insertedLater?[name]?.contains(key) ?? false
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(
                operation: "read the rows this device's changes point to", reason: "\(error)")
        }
        try resolveConflicts(of: &batch, in: context, changedOnHub: &changedOnHub)
        return batch
    }

    /// Settles what a batch meets on the hub before it is sent: a delete of a row that is here again (a fetch
    /// brought it back) is not sent; a property the hub changed since this device's last fetch, and the batch
    /// changes too, is a ``SyncConflict/Kind/bothChanged(properties:)``, and a row the batch deletes that the hub
    /// changed meanwhile a ``SyncConflict/Kind/deletedHereChangedOnHub(properties:)``: the resolver decides, and
    /// what it gives the hub is left out of the batch. (A change to a row the hub deleted is settled as the hub
    /// applies the batch.) A change the hub commits between this check and the batch is not a conflict: the batch,
    /// written after it, wins.
    private func resolveConflicts(
        of batch: inout Batch, in context: ModelContext, changedOnHub: inout ChangedOnHub?
    ) throws {
        for synced in entities {
            let name = synced.entity.name
            guard let deleted = batch.changes[name]?.deletedIdentities, !deleted.isEmpty else { continue }
            let here = try synced.models(withIdentities: deleted, in: context)
            batch.changes[name]?.deletedIdentities.removeAll { here[$0] != nil }
        }
        guard let snapshot = state.fetchedSnapshot else { return }
        if changedOnHub == nil {
            changedOnHub = try readChangedOnHub(since: snapshot)
        }
        for synced in entities {
            let name = synced.entity.name
            guard var changes = batch.changes[name], let changedOnHub = changedOnHub?[name] else { continue }
            for position in changes.rows.indices where !changes.rows[position].isInsert {
                let row = changes.rows[position]
                guard let local = row.changed, let hubChanged = changedOnHub[row.identity],
                    let identity = row.identity.syncIdentity
                else { continue }
                let both = local.intersection(hubChanged)
                guard !both.isEmpty else { continue }
                let conflict = SyncConflict(
                    entityName: name, identity: identity, kind: .bothChanged(properties: synced.names(of: both)))
                if resolve(conflict) == .keepHub { changes.rows[position].changed = local.subtracting(both) }
            }
            changes.deletedIdentities.removeAll { deleted in
                guard let hubChanged = changedOnHub[deleted], let identity = deleted.syncIdentity else { return false }
                let conflict = SyncConflict(
                    entityName: name, identity: identity,
                    kind: .deletedHereChangedOnHub(properties: synced.names(of: hubChanged)))
                return resolve(conflict) == .keepHub
            }
            batch.changes[name] = changes
        }
    }

    /// The properties of each row the hub changed since `snapshot`, other than this device's pushes.
    private func readChangedOnHub(since snapshot: String) throws -> ChangedOnHub {
        let concurrent: [String: SyncedChanges]
        do {
            let committed = try hub.transactions(committedAfter: snapshot, excludingAuthor: pushAuthor)
            concurrent = try hubChanges(of: committed.identifiers, in: ModelContext(hub.container), links: false)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError.hubUnavailable(operation: "read what changed since the last fetch", reason: "\(error)")
        }
        var changedOnHub: ChangedOnHub = [:]
        for synced in entities {
            for row in concurrent[synced.entity.name]?.rows ?? [] {
                changedOnHub[synced.entity.name, default: [:]][row.identity] =
                    row.changed ?? Set(synced.propertyIndexes)
            }
        }
        return changedOnHub
    }

    /// Applies a batch on the hub in one transaction that also moves the device's mark past it; a batch the mark
    /// is already past was applied before and is skipped.
    /// - Returns: whether this call applied the batch.
    private func send(_ batch: Batch) throws -> Bool {
        guard !batch.changes.isEmpty, let first = entities.first else { return true }
        let context = ModelContext(try hub.container)
        context.author = pushAuthor
        context.mergePolicy = .mergeByPropertyObjectTrump
        do {
            try SyncApplication.apply(batch.changes, of: entities, to: context, resolving: resolve)
            try context.save(
                requiring: [
                    hub.markCondition(device: state.deviceIdentifier, through: batch.through, entity: first.entity)
                ])
            return true
        } catch is StoreSaveConditionUnmet {
            // Applied by an earlier send whose acknowledgement was lost.
            return false
        } catch {
            let reason = "\(error)"
            // PostgreSQL refused a row (privileges, row-level security, a constraint), not the connection.
            if ["SQLSTATE 42501", "SQLSTATE 23"].contains(where: reason.contains) {
                throw SyncError.changesRefused(reason: reason)
            }
            throw SyncError.hubUnavailable(operation: "apply this device's changes", reason: reason)
        }
    }
}
