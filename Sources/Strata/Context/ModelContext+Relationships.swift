extension ModelContext {
    // MARK: - Loading

    /// Loads relationship `index` of `data`'s model and of the other registered models of the same entity that
    /// haven't loaded it yet (one query per 500 owners, not one per owner), and returns `data`'s targets.
    ///
    /// The other models are those registered since the relationship was last loaded (`ownersToLoad`), so reading
    /// it page after page costs each page its own models, not every model registered before it.
    @usableFromInline
    func loadRelationship(at index: Int, of data: ModelBackingData) -> Bool {
        guard let entity = data.entity else { return false }
        // A to-one kept as a foreign key, the common case, is read without looking up (and copying) its
        // `RelationshipInfo`.
        let destinations = entity.toOneForeignKeyDestinations
        if index < destinations.count, let destination = destinations[index] {
            loadToOne(at: index, of: data, entity: entity, destination: destination)
            return true
        }
        guard let info = entity.relationshipInfos[index] else { return false }
        if !info.isToMany {
            loadToOne(at: index, of: data, entity: entity, destination: info.destination)
            return true
        }
        guard data.primaryKey != nil else {
            data.relationshipTargets[index] = []
            return true
        }
        // The requesting model first, so its own targets are always among the loaded ones.
        loadToMany(info, owners: [data] + ownersToLoad(of: entity, relationship: index, excluding: data))
        return true
    }

    /// Loads to-one relationship `index` of `data`'s model, whose target is a model of `destination`, and makes
    /// the targets of the other registered models of `entity` that haven't loaded it yet.
    private func loadToOne(
        at index: Int, of data: ModelBackingData, entity: Schema.Entity, destination: Schema.Entity
    ) {
        guard index < data.values.count, case .integer(let key) = data.values[index] else {
            data.relationshipTargets[index] = []
            return
        }
        // A target already registered needs no batch: the other owners' targets are made when one of them
        // is read and missing.
        if let target = registry.model(key, of: destination) {
            data.relationshipTargets.setTarget(target, at: index)
            return
        }
        // The keys of the other owners' targets: noted when the owners were fetched, or read from the owners
        // registered otherwise.
        let notedKeys = takeTargetKeys(of: entity, relationship: index)
        let owners = ownersToLoad(of: entity, relationship: index, excluding: data).compactMap {
            owner -> (ModelBackingData, Int64)? in
            guard index < owner.values.count, case .integer(let ownerKey) = owner.values[index] else { return nil }
            return (owner, ownerKey)
        }
        if destination.cannotBeFault {
            // A model with `let` properties can't be a fault (they are set as it is made): load every row this
            // loop reaches in one query rather than one each.
            registerRows(of: destination, keys: [key] + notedKeys + owners.map(\.1))
        }
        data.relationshipTargets.setTarget(registeredOrFault(destination, primaryKey: key), at: index)
        // Make the other owners' targets too (faults cost no query), so reading the relationship across a list
        // fills all the faults with one query; owners visited here keep theirs at once.
        if !destination.cannotBeFault { makeFaults(of: destination, keys: notedKeys) }
        for (owner, ownerKey) in owners where !owner.relationshipTargets.contains(index) {
            owner.relationshipTargets.setTarget(registeredOrFault(destination, primaryKey: ownerKey), at: index)
        }
    }

    /// Loads a to-many relationship for many owners at once.
    func loadToMany(_ info: Schema.RelationshipInfo, owners: [ModelBackingData]) {
        // In key order, so that the owners of a list in key order are read as ranges (see `SelectStatement`); the
        // first owner's batch first, as a failed query ends the load and the first owner is the one being read.
        let keyed = owners.compactMap { owner in owner.primaryKey.map { ($0, owner) } }.sorted { $0.0 < $1.0 }
        let batchSize = StoreLimits.keysPerStatement
        var starts = Array(stride(from: 0, to: keyed.count, by: batchSize))
        if let first = owners.first?.primaryKey, let position = keyed.firstIndex(where: { $0.0 == first }) {
            starts.swapAt(0, position / batchSize)
        }
        for start in starts {
            let chunk = keyed[start..<Swift.min(start + batchSize, keyed.count)]
            var targets: [Int64: [any PersistentModel]] = [:]
            let keys = chunk.map(\.0)
            do {
                switch info.storage {
                case .foreignKey:
                    return
                case .inverseForeignKey:
                    guard let inverse = info.inverse else { return }
                    let models = try anyModels(Self.targetsFetch(of: info, inverse: inverse, owners: keys))
                    targets = Self.grouped(models, capacity: chunk.count) { position in
                        let data = models[position].persistentBackingData
                        guard inverse.index < data.values.count, case .integer(let owner) = data.values[inverse.index]
                        else { return nil }
                        return owner
                    }
                case .joinTable(let table, let ownerColumn, let targetColumn):
                    let rows = try store.fetchJoinRows(
                        table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owners: keys)
                    if info.destination.cannotBeFault { registerRows(of: info.destination, keys: rows.map(\.target)) }
                    let models = registeredOrFaults(info.destination, primaryKeys: rows.map(\.target))
                    targets = Self.grouped(models, capacity: chunk.count) { rows[$0].owner }
                }
            } catch {
                // A failed load leaves the relationship unread; the next read tries again.
                return
            }
            for (key, owner) in chunk where !owner.relationshipTargets.contains(info.index) {
                let stored = targets[key] ?? []
                // What the owner gained and lost through the inverse while this was unread, applied once.
                guard let pending = owner.sideState?.pendingToManyChanges.removeValue(forKey: info.index) else {
                    owner.relationshipTargets[info.index] = stored
                    continue
                }
                owner.relationshipTargets[info.index] = pending.applied(to: stored)
            }
        }
    }

    /// `models` grouped by owner (`owner` gives the owner of the model at a position, `nil` for none), each owner's
    /// in the order of `models`.
    ///
    /// A to-many load reads its targets ordered by owner, so each owner's models are one run of `models`, copied
    /// into an array of its exact size: appending model by model to an array per owner would grow each one several
    /// times and look its owner up for every model. Models out of that order (a store that doesn't order them) are
    /// appended to their owner's earlier run.
    static func grouped(
        _ models: [any PersistentModel], capacity: Int, owner: (Int) -> Int64?
    ) -> [Int64: [any PersistentModel]] {
        var groups = [Int64: [any PersistentModel]](minimumCapacity: capacity)
        var runOwner: Int64?
        var runStart = 0
        func endRun(at end: Int) {
            guard let owner = runOwner, runStart < end else { return }
            let run = Array(models[runStart..<end])
            // One lookup for an owner's first run, the only one when the models come in owner order.
            if let earlier = groups.updateValue(run, forKey: owner) { groups[owner] = earlier + run }
        }
        for position in models.indices {
            let current = owner(position)
            guard current != runOwner else { continue }
            endRun(at: position)
            runOwner = current
            runStart = position
        }
        endRun(at: models.count)
        return groups
    }

    /// The rows of the targets of `owners` in a to-many relationship kept through its inverse's foreign key, each
    /// owner's in key order. Ordered by owner first, the rows come in the order of the index on the foreign key (its
    /// entries end with the key), so the store reads them without a sort of its own.
    package static func targetsFetch(
        of info: Schema.RelationshipInfo, inverse: Schema.RelationshipInfo, owners: [Int64]
    ) -> StoreFetch {
        var request = StoreFetch(entity: info.destination, columns: info.destination.columnPropertyIndexes)
        request.keyFilter = (inverse.name, owners)
        request.ordering = [
            QueryOrdering(expression: .column(inverse.name), ascending: true, collation: .binary),
            QueryOrdering(expression: .column(StoreLayout.primaryKeyColumn), ascending: true, collation: .binary),
        ]
        return request
    }

    /// The registered model for a row, or a fault for it: a model whose properties load, together with every
    /// other fault of its entity, when one is first read.
    func registeredOrFault(_ entity: Schema.Entity, primaryKey: Int64) -> any PersistentModel {
        if let model = registry.model(primaryKey, of: entity) { return model }
        let data = ModelBackingData.make(primaryKey: primaryKey, entity: entity, store: store, context: self)
        data.unloadedProperties = Set(entity.columnPropertyIndexes)
        let model = ModelBackingData.makeModel(entity.modelType, adopting: data)
        registry.register(model, for: primaryKey, of: entity.identityKey)
        noteFault(primaryKey, of: entity)
        return model
    }

    /// The registered model or a fault (as ``registeredOrFault(_:primaryKey:)`` makes it) for each key of `keys`,
    /// in order, looking the entity's identity map up once rather than once per key.
    func registeredOrFaults(_ entity: Schema.Entity, primaryKeys keys: [Int64]) -> [any PersistentModel] {
        guard !keys.isEmpty else { return [] }
        // Taken out while faults are added, so the map is not copied on write.
        var registered = registry.takeMap(of: entity.identityKey)
        defer { registry.restoreMap(registered, of: entity.identityKey) }
        // One set, shared by every fault until it is filled.
        var unloaded: Set<Int>?
        return keys.map { key in
            if let model = registered[key] { return model }
            let data = ModelBackingData.make(primaryKey: key, entity: entity, store: store, context: self)
            let columns = unloaded ?? Set(entity.columnPropertyIndexes)
            unloaded = columns
            data.unloadedProperties = columns
            let model = ModelBackingData.makeModel(entity.modelType, adopting: data)
            registered.insert(model, for: key)
            noteFault(key, of: entity)
            return model
        }
    }

    /// Registers a fault for each key of `keys` whose row of `entity` has no registered model.
    func makeFaults(of entity: Schema.Entity, keys: [Int64]) {
        guard !keys.isEmpty else { return }
        // Taken out while faults are added, so the map is not copied on write.
        var registered = registry.takeMap(of: entity.identityKey)
        var made: [Int64] = []
        // One set, shared by every fault until it is filled.
        let unloaded = Set(entity.columnPropertyIndexes)
        for key in keys where registered[key] == nil {
            let data = ModelBackingData.make(primaryKey: key, entity: entity, store: store, context: self)
            data.unloadedProperties = unloaded
            registered.insert(ModelBackingData.makeModel(entity.modelType, adopting: data), for: key)
            made.append(key)
        }
        registry.restoreMap(registered, of: entity.identityKey)
        registry.pendingFaults[ObjectIdentifier(entity), default: []].append(contentsOf: made)
    }

    /// Registers the models of the rows of `entity` with `keys` that aren't registered yet, 500 per query.
    func registerRows(of entity: Schema.Entity, keys: [Int64]) {
        let missing = Array(Set(keys.filter { registry.model($0, of: entity) == nil })).sorted()
        for start in stride(from: 0, to: missing.count, by: StoreLimits.keysPerStatement) {
            var request = StoreFetch(entity: entity, columns: entity.columnPropertyIndexes)
            request.keyFilter = (
                StoreLayout.primaryKeyColumn,
                Array(missing[start..<Swift.min(start + StoreLimits.keysPerStatement, missing.count)])
            )
            // A failed read leaves the rows to be loaded one by one as their models are made.
            _ = try? anyModels(request)
        }
    }

    /// Fills in `data` and every other fault of `entity` made since faults were last filled, 500 per query.
    /// Returns whether `data` was filled.
    @usableFromInline
    func fulfillFaults(of entity: Schema.Entity, including data: ModelBackingData) -> Bool {
        // In key order, so that faults made for a list in key order are read as ranges (see `SelectStatement`).
        let all = ([data] + takeFaults(of: entity, excluding: data)).sorted {
            ($0.primaryKey ?? 0) < ($1.primaryKey ?? 0)
        }
        let columns = entity.columnPropertyIndexes
        let properties = entity.persistentProperties
        let passingClasses = entity.classesPassingWithoutPayload
        let validations = entity.rowValidations
        var filledKeys: [Int64] = []
        // Models of subentities keep their own columns unloaded: noted, so reading one loads them together.
        var partialModels: [(key: Int64, data: ModelBackingData)] = []
        defer { notePartialModels(partialModels) }
        for start in stride(from: 0, to: all.count, by: StoreLimits.keysPerStatement) {
            let chunk = all[start..<Swift.min(start + StoreLimits.keysPerStatement, all.count)]
            var byKey = [Int64: ModelBackingData](minimumCapacity: chunk.count)
            for fault in chunk { if let key = fault.primaryKey { byKey[key] = fault } }
            var request = StoreFetch(entity: entity, columns: columns)
            request.keyFilter = (StoreLayout.primaryKeyColumn, chunk.compactMap(\.primaryKey))
            try? store.fetch(request) { row in
                let key = row.int64(at: 0)
                guard let fault = byKey[key], fault.unloadedProperties != nil else { return }
                for (offset, index) in columns.enumerated() {
                    let value = row.storedValue(at: Int32(offset + 1))
                    // Most values fit on their storage class alone (a bit test), as a fetched row's do.
                    if index < passingClasses.count, passingClasses[index].admits(value) {
                        fault.values[index] = value
                        continue
                    }
                    let property = properties[index]
                    if property.relationshipDestination != nil || property.accepts(value) {
                        fault.values[index] = value
                    }
                    if index < validations.count, case .decodeAndCache = validations[index] {
                        fault.decodedValues[index] = property.decodeAny(value)
                    }
                }
                // A subclass's model keeps its own columns unloaded until they are read.
                let faultEntity = fault.entity ?? entity
                let remaining =
                    faultEntity === entity ? [] : faultEntity.columnPropertyIndexes.filter { !columns.contains($0) }
                fault.unloadedProperties = remaining.isEmpty ? nil : Set(remaining)
                if !remaining.isEmpty { partialModels.append((key, fault)) }
                fault.rowVersion = row.version(afterColumns: columns.count)
                filledKeys.append(key)
            }
        }
        // Filled, their own relationships can now be loaded together.
        noteRegisteredOwners(filledKeys, of: entity)
        return data.unloadedProperties == nil
    }

    /// Loads the relationships named by `relationshipKeyPathsForPrefetching` for all `models`, one query (per 500
    /// models) per relationship.
    func prefetch(_ keyPaths: [AnyKeyPath], for models: [any PersistentModel], entity: Schema.Entity) throws {
        for keyPath in keyPaths {
            guard let property = entity.property(for: keyPath), let info = entity.relationshipInfos[property.index]
            else {
                throw StrataError.unsupportedPredicate(
                    expression: "relationshipKeyPathsForPrefetching \(keyPath)",
                    reason: "not a relationship of \(entity.name)")
            }
            let owners = models.map(\.persistentBackingData).filter { !$0.relationshipTargets.contains(info.index) }
            if info.isToMany {
                loadToMany(info, owners: owners)
            } else {
                var faults: [any PersistentModel] = []
                if info.destination.cannotBeFault {
                    registerRows(
                        of: info.destination,
                        keys: owners.compactMap { owner in
                            guard info.index < owner.values.count, case .integer(let key) = owner.values[info.index]
                            else { return nil }
                            return key
                        })
                }
                for owner in owners {
                    guard info.index < owner.values.count, case .integer(let key) = owner.values[info.index] else {
                        continue
                    }
                    let target = registeredOrFault(info.destination, primaryKey: key)
                    owner.relationshipTargets.setTarget(target, at: info.index)
                    if target.persistentBackingData.unloadedProperties != nil { faults.append(target) }
                }
                if let first = faults.first {
                    _ = fulfillFaults(of: info.destination, including: first.persistentBackingData)
                }
            }
        }
    }

    // MARK: - Keeping inverses in step

    /// Called by a model's backing data after one of its relationships was assigned: inserts newly referenced
    /// models and updates the inverse relationship of every model added or removed.
    @usableFromInline
    func relationshipDidChange(
        of model: some PersistentModel, at index: Int, added: [any PersistentModel], removed: [any PersistentModel]
    ) {
        let data = model.persistentBackingData
        for target in added { insertIfDetached(target) }
        if let info = data.entity?.relationshipInfos[index] {
            ModelBackingData.updateInverses(of: model, relationship: info, added: added, removed: removed, in: self)
        }
        if data.state == .registered { changedModels[ObjectIdentifier(model)] = model }
        scheduleAutosave()
    }

    /// Inserts a model reached through a relationship, as SwiftData does, so a graph is saved whole.
    func insertIfDetached(_ model: any PersistentModel) {
        let data = model.persistentBackingData
        guard data.context == nil || data.state == .detached else { return }
        insertAny(model)
    }
}
