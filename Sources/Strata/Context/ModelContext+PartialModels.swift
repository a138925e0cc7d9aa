extension ModelContext {
    /// Loads the properties at `columns` of `data` and of every other registered model of `entity` missing exactly
    /// those (the models of one fetch with `propertiesToFetch`), up to 500 in one query, in key order so that a list
    /// read in key order is read as a range. Returns whether `data`'s were loaded; when no other model shares them,
    /// or the read fails, nothing is loaded and `data` reads its own row, which reports a failure or a row gone.
    @usableFromInline
    func loadMissingProperties(_ columns: [Int], of entity: Schema.Entity, including data: ModelBackingData) -> Bool {
        guard let missing = data.unloadedProperties, let key = data.primaryKey else { return false }
        var sharing: [(key: Int64, data: ModelBackingData)] = [(key, data)]
        registry.map(of: entity.identityKey)?.forEachModel { otherKey, model in
            guard sharing.count < StoreLimits.keysPerStatement else { return }
            let other = model.persistentBackingData
            guard other !== data, other.entity === entity, other.primaryKey == otherKey,
                !other.hasSavedValues, other.unloadedProperties == missing
            else { return }
            sharing.append((otherKey, other))
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
            return false
        }
        return data.unloadedProperties == nil
    }
}
