extension Schema {
    /// The given model classes, then every model class they reach through relationships, transitively — as
    /// SwiftData's `Schema` includes them, so `ModelContainer(for: Trip.self)` also stores the `BucketListItem`s
    /// a trip refers to.
    ///
    /// The order is deterministic: the given classes first (duplicates dropped), then the discovered ones
    /// breadth-first, each class's relationships in declaration order.
    static func reachableModelTypes(from types: [any PersistentModel.Type]) -> [any PersistentModel.Type] {
        var seen = Set<ObjectIdentifier>()
        var ordered: [any PersistentModel.Type] = []
        for type in types where seen.insert(ObjectIdentifier(type)).inserted {
            ordered.append(type)
        }
        var next = 0
        while next < ordered.count {
            let type = ordered[next]
            next += 1
            // A model subclass is stored with its superclasses' rows, so their entities come along.
            if let superclass = _getSuperclass(type) as? any PersistentModel.Type,
                seen.insert(ObjectIdentifier(superclass)).inserted
            {
                ordered.append(superclass)
            }
            for metadata in type.schemaMetadata {
                let property = metadata.property
                guard property.relationshipDestination != nil,
                    let destination = property.valueType as? any PersistentModel.Type,
                    seen.insert(ObjectIdentifier(destination)).inserted
                else { continue }
                ordered.append(destination)
            }
        }
        return ordered
    }
}
