extension ModelContext {
    /// The models of one entity that miss the same properties: a fetch with `propertiesToFetch`, or the subentity's
    /// own columns of models filled as their base entity's faults.
    struct PartialModelGroup: Hashable {
        /// The models' own entity (`ObjectIdentifier` of its `Schema.Entity`).
        let entity: ObjectIdentifier
        /// The property indexes the models miss.
        let missing: Set<Int>
    }

    /// The keys of a group's models in the order they were registered, and how far loading has taken them: each
    /// load takes the next models from the list, so reading one more property of every model of a long list costs
    /// in proportion to the list, not to its square.
    struct PendingPartialModels {
        var keys: [Int64] = []
        /// The position of the first key not taken yet.
        var next = 0
    }

    /// Notes models just registered with some properties left out, so that the first read of one of those
    /// properties loads them for the others too. Models with every property loaded are skipped.
    func notePartialModels(_ models: some Sequence<(key: Int64, data: ModelBackingData)>) {
        // The models of one fetch nearly always share their entity and what they miss: compared with the last
        // model's, not hashed per model.
        var group: (key: PartialModelGroup, entity: Schema.Entity)?
        var keys: [Int64] = []
        for (key, data) in models {
            guard let missing = data.unloadedProperties, let entity = data.entity else { continue }
            if let current = group, current.entity === entity, current.key.missing == missing {
                keys.append(key)
                continue
            }
            if let current = group { notePartialModels(keys, in: current.key, of: current.entity) }
            group = (PartialModelGroup(entity: ObjectIdentifier(entity), missing: missing), entity)
            keys = [key]
        }
        if let group { notePartialModels(keys, in: group.key, of: group.entity) }
    }

    /// Notes the models of `group`, of `entity`, with `keys`.
    func notePartialModels(_ keys: [Int64], in group: PartialModelGroup, of entity: Schema.Entity) {
        guard !keys.isEmpty else { return }
        var pending = registry.pendingPartialModels.removeValue(forKey: group) ?? PendingPartialModels()
        // Keys taken, or of models since filled or gone (enumerate releases its pages), would pile up: past twice
        // the registered count, the list keeps only the keys not taken whose models still miss the group's
        // properties — one pass, paid for by as many appends.
        if pending.keys.count > 2 * registry.count(of: entity.identityKey) + 1024 {
            let map = registry.map(of: entity.identityKey)
            pending.keys = pending.keys[pending.next...].filter {
                map?[$0]?.persistentBackingData.unloadedProperties == group.missing
            }
            pending.next = 0
        }
        pending.keys.append(contentsOf: keys)
        registry.pendingPartialModels[group] = pending
    }

    /// Loads the properties at `columns` of `data` and of the next registered models of its entity missing exactly
    /// those (noted by ``notePartialModels(_:)``: the models of one fetch with `propertiesToFetch`), up to 500 in one
    /// query, in key order so that a list read in key order is read as a range. Returns whether `data`'s were
    /// loaded; when no other model shares them, or the read fails, nothing is loaded and `data` reads its own row,
    /// which reports a failure or a row gone.
    @usableFromInline
    func loadMissingProperties(_ columns: [Int], of entity: Schema.Entity, including data: ModelBackingData) -> Bool {
        guard let missing = data.unloadedProperties, let key = data.primaryKey else { return false }
        var sharing: [(key: Int64, data: ModelBackingData)] = [(key, data)]
        let group = PartialModelGroup(entity: ObjectIdentifier(entity), missing: missing)
        if var pending = registry.pendingPartialModels.removeValue(forKey: group) {
            let map = registry.map(of: entity.identityKey)
            // Keys whose models have since been filled, changed or released are passed over for good.
            while pending.next < pending.keys.count, sharing.count < StoreLimits.keysPerStatement {
                let otherKey = pending.keys[pending.next]
                pending.next += 1
                guard let other = map?[otherKey]?.persistentBackingData, other !== data, other.entity === entity,
                    other.primaryKey == otherKey, !other.hasSavedValues, other.unloadedProperties == missing
                else { continue }
                sharing.append((otherKey, other))
            }
            if pending.next < pending.keys.count { registry.pendingPartialModels[group] = pending }
        }
        guard sharing.count > 1 else { return false }
        sharing.sort { $0.key < $1.key }
        var byKey = [Int64: ModelBackingData](minimumCapacity: sharing.count)
        for entry in sharing { byKey[entry.key] = entry.data }
        var request = StoreFetch(entity: entity, columns: columns)
        request.keyFilter = (StoreLayout.primaryKeyColumn, sharing.map(\.key))
        do {
            try store.fetch(request) { row in
                guard let other = byKey[row.int64(at: 0)], other.unloadedProperties == missing else { return }
                other.fillUnloadedProperties(columns, of: entity) { row.storedValue(at: Int32($0 + 1)) }
            }
        } catch {
            // The others taken here are noted again, so a later read can still load them together.
            notePartialModels(sharing.dropFirst().map(\.key), in: group, of: entity)
            return false
        }
        return data.unloadedProperties == nil
    }
}
