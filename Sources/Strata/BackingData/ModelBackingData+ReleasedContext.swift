extension ModelBackingData {
    /// Reads relationship `index` of a stored model whose context is gone, straight from its store: the model keeps
    /// its store, entity and primary key, so its relationships read what is stored rather than nothing.
    ///
    /// The related models are faults in no context, whose properties load from the store when first read (one
    /// query per model, as no context gathers them). `nil` when the model has no row or the read fails; a failed
    /// read is logged (`StrataLog`, category `fault`), as no context is left to keep it in its `faultError`.
    func relatedModelsFromStore(at index: Int) -> [any PersistentModel]? {
        guard state == .registered, let contextReference, let store, let entity, let primaryKey,
            let info = entity.relationshipInfos[index]
        else { return nil }
        var keys: [Int64] = []
        switch info.storage {
        case .foreignKey:
            if index < values.count, case .integer(let key) = values[index] { keys = [key] }
        case .inverseForeignKey where info.inverse == nil:
            return nil
        case .inverseForeignKey, .joinTable:
            do {
                keys = try store.relatedKeys(of: primaryKey, through: info)
            } catch {
                StrataLog.log(
                    .error, "a relationship of a model whose context is gone could not be read from the store",
                    metadata: [
                        "entity": entity.name, "primaryKey": String(primaryKey),
                        "relationship": info.name,
                        "error": StrataError(error)?.description ?? "\(error)",
                    ],
                    category: "fault")
                return nil
            }
        }
        let targets = keys.map { key -> any PersistentModel in
            // The gone context's reference, shared: it names no context and the same store.
            let data = ModelBackingData.make(
                primaryKey: key, entity: info.destination, contextReference: contextReference)
            data.unloadedProperties = Set(info.destination.columnPropertyIndexes)
            return ModelBackingData.makeModel(info.destination.modelType, adopting: data)
        }
        relationshipTargets[index] = targets
        return targets
    }
}
