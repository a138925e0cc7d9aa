extension ModelContext: ModelBackingDataContext {
    /// Records that `model`'s relationship changed because an inverse was assigned, so the next save writes it.
    @usableFromInline
    func inverseRelationshipDidChange(of model: any PersistentModel) {
        changedModels[ObjectIdentifier(model)] = model
    }

    /// Keeps a fault's failure in `faultError`; a model whose row is gone leaves the identity map and the
    /// changes to save, as a reload leaves it, so a new row that reuses its primary key becomes a new model.
    @usableFromInline
    func faultCouldNotBeFulfilled(_ data: ModelBackingData, error: StrataError, rowIsGone: Bool) {
        faultError = error
        guard rowIsGone, let entity = data.entity, let key = data.primaryKey,
            let model = registry.model(key, of: entity), model.persistentBackingData === data
        else { return }
        registry.remove(key, of: entity.identityKey, ifItIs: model)
        changedModels[ObjectIdentifier(model)] = nil
    }
}

extension PersistentModel {
    /// The context the model was inserted into or fetched by, or `nil`: also `nil` once its deletion is saved (or
    /// its row is found gone), as in SwiftData, where apps test `model.modelContext == nil` to tell a deleted model.
    ///
    /// A model holds its context weakly. A stored model whose context was released keeps its store, so its
    /// properties and relationships still read what is stored (the related models come back in no context); it is
    /// never emptied silently.
    public var modelContext: ModelContext? {
        let data = persistentBackingData
        guard data.state != .deletedAndSaved else { return nil }
        return data.context as? ModelContext
    }
}
