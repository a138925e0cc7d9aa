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
        /// For to-one relationships kept as foreign keys (by property index), the keys of the targets of owners
        /// noted with them: the next read makes their models without visiting the owners, which by then are
        /// seldom in the cache.
        var targetKeys: [Int: NotedTargets] = [:]
    }

    /// The target keys of one to-one relationship, read from its owners' rows as they were fetched.
    struct NotedTargets {
        /// The targets' primary keys.
        var keys: [Int64] = []
        /// The position in the owners' list from which the relationship skipped its owners for these keys.
        var firstSkippedOwner: Int
        /// The registry's `revision` when the keys were read: after a save or a removal the owners are
        /// visited instead, since their references may have changed.
        var registryRevision: Int
    }

    /// Notes that the models of `entity` with `keys` are registered with their values, so the next read of each
    /// of their relationships loads it for them too. Does nothing for an entity without relationships.
    ///
    /// `targetKeys` gives, for to-one relationships kept as foreign keys, the keys the owners refer to, read
    /// while the owners' values were at hand; the next read of such a relationship then doesn't visit these owners.
    func noteRegisteredOwners(
        _ keys: some Collection<Int64>, of entity: Schema.Entity, targetKeys: [Int: [Int64]] = [:]
    ) {
        guard !entity.relationshipInfos.isEmpty, !keys.isEmpty else { return }
        let entityKey = entity.identityKey
        var pending = registry.pendingOwners.removeValue(forKey: entityKey) ?? PendingOwners()
        // Keys noted before a save or a removal are dropped: those owners are visited instead.
        for (index, noted) in pending.targetKeys where noted.registryRevision != registry.revision {
            pending.targetKeys[index] = nil
            pending.loaded[index] = noted.firstSkippedOwner
        }
        // Only a relationship loaded up to the end of the list can skip the owners added now: positions are all
        // it keeps of what it has loaded.
        let skipping = targetKeys.keys.filter { (pending.loaded[$0] ?? 0) == pending.keys.count }
        pending.keys.append(contentsOf: keys)
        for index in skipping {
            // Taken out while keys are added: a copy left in the dictionary would make the append copy every key
            // noted so far, on every fetch while the relationship isn't read (its targets all registered).
            var noted =
                pending.targetKeys.removeValue(forKey: index)
                ?? NotedTargets(firstSkippedOwner: pending.keys.count - keys.count, registryRevision: registry.revision)
            noted.keys.append(contentsOf: targetKeys[index] ?? [])
            pending.targetKeys[index] = noted
            pending.loaded[index] = pending.keys.count
        }
        // Keys of models long gone (enumerate releases its pages) would pile up while a relationship is never
        // read: past twice the registered count, the list restarts from the identity map's keys, every
        // relationship from the start — one pass over the registered models, paid for by as many appends.
        let registeredCount = registry.count(of: entityKey)
        if pending.keys.count > 2 * registeredCount + 1024 {
            pending = PendingOwners(keys: registry.map(of: entityKey)?.primaryKeys ?? [])
        }
        registry.pendingOwners[entityKey] = pending
    }

    /// The target keys noted for to-one relationship `index` of `entity`'s owners (see `noteRegisteredOwners`);
    /// they count as loaded from now on. Keys noted before a save or a removal are dropped, and their owners are
    /// left for `ownersToLoad` to visit.
    func takeTargetKeys(of entity: Schema.Entity, relationship index: Int) -> [Int64] {
        let entityKey = entity.identityKey
        guard let noted = registry.pendingOwners[entityKey]?.targetKeys.removeValue(forKey: index) else { return [] }
        guard noted.registryRevision == registry.revision else {
            registry.pendingOwners[entityKey]?.loaded[index] = noted.firstSkippedOwner
            return []
        }
        return noted.keys
    }

    /// The registered models of `entity` noted since relationship `index` was last loaded for them, with their
    /// values loaded and the relationship not loaded yet; they count as loaded from now on.
    func ownersToLoad(
        of entity: Schema.Entity, relationship index: Int, excluding data: ModelBackingData
    ) -> [ModelBackingData] {
        let entityKey = entity.identityKey
        guard var pending = registry.pendingOwners.removeValue(forKey: entityKey) else { return [] }
        let start = Swift.min(pending.loaded[index] ?? 0, pending.keys.count)
        let map = registry.map(of: entityKey)
        var owners: [ModelBackingData] = []
        for key in pending.keys[start...] {
            guard let owner = map?[key]?.persistentBackingData, owner !== data, owner.primaryKey != nil,
                owner.unloadedProperties == nil, !owner.relationshipTargets.contains(index)
            else { continue }
            owners.append(owner)
        }
        pending.loaded[index] = pending.keys.count
        // Once every relationship has passed every key and taken its target keys, the list starts over empty.
        if pending.targetKeys.isEmpty,
            entity.relationshipInfos.keys.allSatisfy({ pending.loaded[$0] == pending.keys.count })
        {
            pending = PendingOwners()
        }
        registry.pendingOwners[entityKey] = pending
        return owners
    }

    /// Notes a fault of `entity` just registered, so the next read of any fault's properties fills it too.
    func noteFault(_ key: Int64, of entity: Schema.Entity) {
        registry.pendingFaults[ObjectIdentifier(entity), default: []].append(key)
    }

    /// The faults of `entity` noted since faults were last filled that are still registered and unfilled
    /// (other than `data`); the list starts over empty.
    func takeFaults(of entity: Schema.Entity, excluding data: ModelBackingData) -> [ModelBackingData] {
        let entityKey = entity.identityKey
        guard let keys = registry.pendingFaults.removeValue(forKey: entityKey) else { return [] }
        let map = registry.map(of: entityKey)
        return keys.compactMap { key in
            guard let fault = map?[key]?.persistentBackingData, fault !== data, fault.unloadedProperties != nil,
                fault.primaryKey != nil
            else { return nil }
            return fault
        }
    }
}
