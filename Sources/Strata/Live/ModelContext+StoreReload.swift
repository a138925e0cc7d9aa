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
    func reloadRegisteredModels(of entity: Schema.Entity, keys: Set<Int64>?) throws {
        let entityKey = ObjectIdentifier(entity)
        guard let registered = registeredModels[entityKey], !registered.isEmpty else { return }
        let candidates = registered.filter { key, model in
            (keys?.contains(key) ?? true) && !model.persistentBackingData.hasChanges
        }
        guard !candidates.isEmpty else { return }
        let sortedKeys = candidates.keys.sorted()
        var found = Set<Int64>()
        let columns = Array(entity.properties.indices)
        for start in stride(from: 0, to: sortedKeys.count, by: Self.reloadBatchSize) {
            var request = StoreFetch(entity: entity, columns: columns)
            request.primaryKeys = Array(sortedKeys[start..<min(start + Self.reloadBatchSize, sortedKeys.count)])
            try store.fetch(request) { row in
                let key = row.int64(at: 0)
                found.insert(key)
                if let model = candidates[key] { Self.reload(model.persistentBackingData, from: row, entity: entity) }
            }
        }
        for (key, model) in candidates where !found.contains(key) {
            registeredModels[entityKey]?[key] = nil
            model.persistentBackingData.state = .deletedAndSaved
        }
    }

    /// Replaces a model's values with a row's, unless a stored value doesn't fit its property (then the model
    /// keeps the values it had, which were valid when loaded).
    private static func reload(_ data: ModelBackingData, from row: any StoreRow, entity: Schema.Entity) {
        var values = ContiguousArray<StoredValue>()
        values.reserveCapacity(entity.properties.count)
        for (index, property) in entity.properties.enumerated() {
            let value = row.storedValue(at: Int32(index + 1))
            let fits = property.cachesDecodedValue ? property.decodeAny(value) != nil : property.accepts(value)
            guard fits else { return }
            values.append(value)
        }
        guard values != data.values || data.unloadedProperties != nil else { return }
        data.values = values
        data.decodedValues.removeAll()
        data.unloadedProperties = nil
    }
}
