extension ModelContext: ModelBackingDataContext {
    /// Records that `model`'s relationship changed because an inverse was assigned, so the next save writes it.
    @usableFromInline
    func inverseRelationshipDidChange(of model: any PersistentModel) {
        changedModels[ObjectIdentifier(model)] = model
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
