extension ModelContext {
    /// The most primary keys bound in one reload query.
    private static let reloadBatchSize = 500

    /// Brings the registered models of `entity` up to date with what another context or process saved.
    ///
    /// Models with unsaved changes keep them. A model whose row is gone leaves the identity map and reads as
    /// deleted, so a new row that reuses its primary key becomes a new model.
    ///
    /// - Parameter keys: the rows that changed; `nil` when unknown, which reloads every registered model.
    /// - Throws: `StrataError.storeFailure` when the store can't be read.
    func reloadRegisteredModels(of entity: Schema.Entity, keys: Set<Int64>?, serial: UInt64 = 0) throws {
        let entityKey = entity.identityKey
        guard registry.count(of: entityKey) > 0 else { return }
        var candidates: [Int64: any PersistentModel] = [:]
        // Read in place: a copy of the identity map kept while models are unregistered below would copy it whole.
        if let keys {
            // Look the few changed keys up rather than walk every registered model, and skip the rows another
            // observer of this context already read for the same save.
            for key in keys where !isFresh(entity, key, for: serial) {
                if let model = registry[entityKey, key], model.persistentBackingData.entity === entity,
                    !model.persistentBackingData.hasChanges
                {
                    candidates[key] = model
                }
            }
        } else {
            // A hierarchy's models share one identity map; each entity's models are read with its own columns.
            candidates =
                registry.map(of: entityKey)?.filter {
                    $0.persistentBackingData.entity === entity && !$0.persistentBackingData.hasChanges
                } ?? [:]
        }
        guard !candidates.isEmpty else { return }
        let sortedKeys = candidates.keys.sorted()
        var found = Set<Int64>()
        var reloaded: [(model: any PersistentModel, properties: [Int])] = []
        let columns = entity.columnPropertyIndexes
        for start in stride(from: 0, to: sortedKeys.count, by: Self.reloadBatchSize) {
            var request = StoreFetch(entity: entity, columns: columns)
            request.keyFilter = (
                StoreLayout.primaryKeyColumn,
                Array(sortedKeys[start..<min(start + Self.reloadBatchSize, sortedKeys.count)])
            )
            try store.fetch(request) { row in
                let key = row.int64(at: 0)
                found.insert(key)
                guard let model = candidates[key] else { return }
                let changed = Self.reload(model.persistentBackingData, from: row, columns: columns, entity: entity)
                if !changed.isEmpty { reloaded.append((model, changed)) }
            }
        }
        if serial > 0 { markFresh(entity, Set(sortedKeys), for: serial) }
        // After the fetch, so an observer that reads the store from its callback doesn't wait on the store's lock.
        for (model, properties) in reloaded { notifyObservers(of: model, properties: properties) }
        for (key, model) in candidates where !found.contains(key) {
            registry.remove(key, of: entityKey)
            model.persistentBackingData.state = .deletedAndSaved
        }
    }

    /// Replaces a model's stored values with a row's (`columns` in row order), unless a value doesn't fit its
    /// property: then the model keeps the values it had, which were valid when loaded.
    /// - Returns: the indexes of the properties whose values changed.
    private static func reload(
        _ data: ModelBackingData, from row: any StoreRow, columns: [Int], entity: Schema.Entity
    ) -> [Int] {
        // Read into a copy, so a row with a value that doesn't fit leaves the model as it was.
        var values = data.values.copy
        var changed: [Int] = []
        for (offset, index) in columns.enumerated() {
            let value = row.storedValue(at: Int32(offset + 1))
            let property = entity.persistentProperties[index]
            let fits: Bool
            if property.relationshipDestination != nil {
                switch value {
                case .integer, .null: fits = true
                default: fits = false
                }
            } else {
                fits = property.cachesDecodedValue ? property.decodeAny(value) != nil : property.accepts(value)
            }
            guard fits else { return [] }
            if values[index] != value { changed.append(index) }
            values[index] = value
        }
        // The values are the row's now, and so is the version a later save checks.
        data.rowVersion = row.version(afterColumns: columns.count)
        guard !changed.isEmpty || data.unloadedProperties != nil else { return [] }
        data.values.replace(with: values)
        data.decodedValues.removeAll()
        // Related models are looked up again from the new foreign keys (and join rows) when next read.
        data.relationshipTargets.removeAll()
        data.unloadedProperties = nil
        return changed
    }
}

extension ModelContext {
    /// Whether this context read `key` of `entity` from the store for the save numbered `serial` (or a later one).
    func isFresh(_ entity: Schema.Entity, _ key: Int64, for serial: UInt64) -> Bool {
        serial > 0 && (registry.readSerials[ObjectIdentifier(entity)]?[key] ?? 0) >= serial
    }

    /// Records that this context read `keys` of `entity` from the store for the save numbered `serial`.
    func markFresh(_ entity: Schema.Entity, _ keys: Set<Int64>, for serial: UInt64) {
        guard serial > 0 else { return }
        for key in keys { registry.readSerials[ObjectIdentifier(entity), default: [:]][key] = serial }
    }
}
