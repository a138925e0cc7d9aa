extension ModelContext {
    /// The registered models of one entity that may not have loaded their relationships yet, kept so that
    /// reading a relationship loads it for those models together (one query per 500), without looking at every
    /// model the context has registered.
    ///
    /// Keys are appended as models are registered with their values (fetched, faults filled, inserts saved);
    /// each relationship remembers how far into the list it has loaded. A relationship read therefore costs in
    /// proportion to the models registered since its last read, not to all registered models — paging through a
    /// long list and reading a relationship on each page stays linear.
    struct PendingOwners {
        /// Primary keys in the order their models were registered; a key whose model has left the identity map
        /// since is skipped when read.
        var keys: [Int64] = []
        /// For each relationship (by property index), the position in `keys` up to which it has been loaded.
        var loaded: [Int: Int] = [:]
    }

    /// Notes that the models of `entity` with `keys` are registered with their values, so the next read of each
    /// of their relationships loads it for them too. Does nothing for an entity without relationships.
    func noteRegisteredOwners(_ keys: some Collection<Int64>, of entity: Schema.Entity) {
        guard !entity.relationshipInfos.isEmpty, !keys.isEmpty else { return }
        let entityKey = entity.identityKey
        pendingOwners[entityKey, default: PendingOwners()].keys.append(contentsOf: keys)
        // Keys of models long gone (enumerate releases its pages) would pile up while a relationship is never
        // read: past twice the registered count, the list restarts from the identity map's keys, every
        // relationship from the start — one pass over the registered models, paid for by as many appends.
        let registeredCount = registeredModels[entityKey]?.count ?? 0
        if let pending = pendingOwners[entityKey], pending.keys.count > 2 * registeredCount + 1024 {
            pendingOwners[entityKey] = PendingOwners(keys: registeredModels[entityKey]?.primaryKeys ?? [], loaded: [:])
        }
    }

    /// The registered models of `entity` noted since relationship `index` was last loaded for them, with their
    /// values loaded and the relationship not loaded yet; they count as loaded from now on.
    func ownersToLoad(
        of entity: Schema.Entity, relationship index: Int, excluding data: ModelBackingData
    ) -> [ModelBackingData] {
        let entityKey = entity.identityKey
        guard var pending = pendingOwners.removeValue(forKey: entityKey) else { return [] }
        let start = Swift.min(pending.loaded[index] ?? 0, pending.keys.count)
        let map = registeredModels[entityKey]
        var owners: [ModelBackingData] = []
        for key in pending.keys[start...] {
            guard let owner = map?[key]?.persistentBackingData, owner !== data, owner.primaryKey != nil,
                owner.unloadedProperties == nil, owner.sideState?.relationshipTargets[index] == nil
            else { continue }
            owners.append(owner)
        }
        pending.loaded[index] = pending.keys.count
        // Once every relationship has passed every key, the list starts over empty.
        if entity.relationshipInfos.keys.allSatisfy({ pending.loaded[$0] == pending.keys.count }) {
            pending = PendingOwners()
        }
        pendingOwners[entityKey] = pending
        return owners
    }

    /// Notes a fault of `entity` just registered, so the next read of any fault's properties fills it too.
    func noteFault(_ key: Int64, of entity: Schema.Entity) {
        pendingFaults[ObjectIdentifier(entity), default: []].append(key)
    }

    /// The faults of `entity` noted since faults were last filled that are still registered and unfilled
    /// (other than `data`); the list starts over empty.
    func takeFaults(of entity: Schema.Entity, excluding data: ModelBackingData) -> [ModelBackingData] {
        let entityKey = entity.identityKey
        guard let keys = pendingFaults.removeValue(forKey: entityKey) else { return [] }
        let map = registeredModels[entityKey]
        return keys.compactMap { key in
            guard let fault = map?[key]?.persistentBackingData, fault !== data, fault.unloadedProperties != nil,
                fault.primaryKey != nil
            else { return nil }
            return fault
        }
    }
}
