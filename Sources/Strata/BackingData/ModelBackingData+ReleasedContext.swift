extension ModelBackingData {
    /// Reads relationship `index` of a stored model whose context is gone, straight from its store: the model keeps
    /// its store, entity and primary key, so its relationships read what is stored rather than nothing.
    ///
    /// The related models are faults in no context, whose properties load from the store when first read (one
    /// query per model, as no context gathers them). `nil` when the model has no row or the read fails.
    func relatedModelsFromStore(at index: Int) -> [any PersistentModel]? {
        guard state == .registered, let store, let entity, let primaryKey,
            let info = entity.relationshipInfos[index]
        else { return nil }
        var keys: [Int64] = []
        switch info.storage {
        case .foreignKey:
            if index < values.count, case .integer(let key) = values[index] { keys = [key] }
        case .inverseForeignKey where info.inverse == nil:
            return nil
        case .inverseForeignKey, .joinTable:
            guard let related = try? store.relatedKeys(of: primaryKey, through: info) else { return nil }
            keys = related
        }
        let targets = keys.map { key -> any PersistentModel in
            let data = ModelBackingData.make(primaryKey: key, entity: info.destination, store: store, context: nil)
            data.unloadedProperties = Set(info.destination.columnPropertyIndexes)
            return ModelBackingData.makeModel(info.destination.modelType, adopting: data)
        }
        relationshipTargets[index] = targets
        return targets
    }
}
