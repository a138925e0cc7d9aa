import Synchronization

extension Schema {
    /// The entities of models in no context, by model type, resolved once each.
    private static let detachedEntities = Mutex<[ObjectIdentifier: Entity]>([:])

    /// The entity of `type` with its relationships resolved against its destinations alone, for models not in a
    /// context yet (so assigning a relationship of a new model sets the inverse at once, as in SwiftData).
    ///
    /// Inverses resolve as in any container holding the same classes: an inverse, given or inferred, only ever
    /// involves the two classes a relationship connects.
    package static func detachedEntity(for type: any PersistentModel.Type) -> Entity {
        if let entity = detachedEntities.withLock({ $0[ObjectIdentifier(type)] }) { return entity }
        let destinations = type.schemaMetadata.compactMap { $0.property.valueType as? any PersistentModel.Type }
        let entity = Schema([type] + destinations).entity(forType: type) ?? Entity(modelType: type)
        return detachedEntities.withLock { entities in
            if let existing = entities[ObjectIdentifier(type)] { return existing }
            entities[ObjectIdentifier(type)] = entity
            return entity
        }
    }
}
