import Strata

extension SyncEngine {
    /// Brings in what other devices and server code saved on the hub since the last fetch (the first fetch reads
    /// every row), saving it in the local store as ``fetchAuthor``: live results and history observers on the
    /// device see it; ``sendChanges()`` doesn't send it back. A fetched change that meets one this device has not
    /// sent yet is a ``SyncConflict``, settled by the configuration's resolver: by default a property changed here
    /// keeps its local value (it wins when sent), and a delete on either side wins.
    /// - Throws: ``SyncError/hubUnavailable(operation:reason:)``; nothing was saved locally then.
    public func fetchChanges() async throws {
        try reporting(.fetch) { try fetchHubChanges() }
    }

    /// - Returns: how many local saves are not sent yet, read from the local history the fetch reads anyway.
    private func fetchHubChanges() throws -> Int {
        let hubContext = ModelContext(try hub.container)
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
        do {
            try ReferencedRows.add(to: &changes, of: entitiesByName, from: hubContext, missingIn: context)
        } catch {
            throw SyncError.hubUnavailable(operation: "read the rows the fetched changes point to", reason: "\(error)")
        }
        var pending = try pendingLocalChanges(localHistory, in: context)
        resolveConflicts(of: &changes, pending: &pending)
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
        eventStreams.send(.stateUpdate(state.serialization))
        return localHistory?.transactionCount ?? 0
    }

    /// Settles each fetched change that meets a change this device has not sent: a property both changed is a
    /// ``SyncConflict/Kind/bothChanged(properties:)``, a fetched row this device deleted a
    /// ``SyncConflict/Kind/deletedHereChangedOnHub(properties:)``, a fetched delete of a row this device changed a
    /// ``SyncConflict/Kind/changedHereDeletedOnHub(properties:)``. What the resolver gives the hub leaves `pending`
    /// (the fetched value, row or delete is applied); what it keeps here stays (and wins when sent). Every fetched
    /// row is then written whole: the hub's row as it is now.
    private func resolveConflicts(
        of changes: inout [String: SyncedChanges], pending: inout [String: [StoredValue: Set<Int>?]]
    ) {
        for synced in entities {
            let name = synced.entity.name
            guard var entityChanges = changes[name] else { continue }
            var entityPending = pending[name] ?? [:]
            let all = Set(synced.propertyIndexes).subtracting([synced.identityIndex])
            for position in entityChanges.rows.indices {
                let row = entityChanges.rows[position]
                entityChanges.rows[position].changed = nil
                guard let local = entityPending[row.identity], let identity = row.identity.syncIdentity else {
                    continue
                }
                let changedOnHub = row.changed.map { $0.intersection(all) } ?? all
                // A row fetched only because a changed row points to it changed nothing on the hub.
                guard !changedOnHub.isEmpty else { continue }
                if let local {
                    let both = local.intersection(changedOnHub)
                    guard !both.isEmpty else { continue }
                    let conflict = SyncConflict(
                        entityName: name, identity: identity, kind: .bothChanged(properties: synced.names(of: both)))
                    if resolve(conflict) == .keepHub { entityPending[row.identity] = .some(local.subtracting(both)) }
                } else {
                    let conflict = SyncConflict(
                        entityName: name, identity: identity,
                        kind: .deletedHereChangedOnHub(properties: synced.names(of: changedOnHub)))
                    if resolve(conflict) == .keepHub { entityPending.removeValue(forKey: row.identity) }
                }
            }
            for deleted in entityChanges.deletedIdentities {
                guard case .some(.some(let local)) = entityPending[deleted], let identity = deleted.syncIdentity else {
                    continue
                }
                let conflict = SyncConflict(
                    entityName: name, identity: identity,
                    kind: .changedHereDeletedOnHub(properties: synced.names(of: local)))
                if resolve(conflict) == .keepHub { entityPending.removeValue(forKey: deleted) }
            }
            changes[name] = entityChanges
            pending[name] = entityPending
        }
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
