extension ModelBackingData {
    /// The stored form of property `index`, reading the model's unloaded properties first.
    package func storedValue(at index: Int) -> StoredValue {
        if unloadedProperties != nil { loadUnloadedProperties() }
        return withUnsafeValues { index < $0.count ? $0[index] : .null }
    }

    /// Sets property `index` of `model` to `stored`, as the property's setter would: the change is recorded for the
    /// next save (and the undo manager), and the model's observers hear of it.
    package func setStoredValue<Model: PersistentModel>(_ stored: StoredValue, at index: Int, on model: Model) {
        if !decodedValues.isEmpty { decodedValues[index] = nil }
        assign(stored, at: index, on: model)
        entity?.persistentProperties[index].notifyObservers(of: model)
    }
}

extension Schema.Entity {
    /// A new model of this entity, not yet inserted into a context: the properties' default values, with `values`
    /// (by property index) over them. The model class's own initializer does not run.
    package func makeNewModel(values: [Int: StoredValue]) -> any PersistentModel {
        let data = ModelBackingData.make(propertyCount: persistentProperties.count)
        data.withUnsafeMutableValues { stored in
            for index in stored.indices {
                stored[index] = values[index] ?? (index < defaultValues.count ? defaultValues[index] : nil) ?? .null
            }
        }
        return modelType.init(backingData: data)
    }
}

extension ModelBackingData {
    /// Sets relationship `index` of `model` to `targets` (a to-one: none or one), as the relationship's setter
    /// would: the inverses follow, and the change is recorded for the next save.
    package func setRelatedModels<Model: PersistentModel>(
        _ targets: [any PersistentModel], at index: Int, on model: Model
    ) {
        let old = relatedModels(at: index)
        guard old.count != targets.count || zip(old, targets).contains(where: { $0 !== $1 }) else { return }
        let kept = Set(targets.map { ObjectIdentifier($0) })
        assignRelationship(targets, at: index, removed: old.filter { !kept.contains(ObjectIdentifier($0)) }, on: model)
    }
}
