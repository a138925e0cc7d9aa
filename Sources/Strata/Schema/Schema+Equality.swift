extension Schema: Hashable {
    /// Two schemas are equal when they describe the same models the same way: the same version and, entity by
    /// entity (whatever their order), the same entities. Two schemas made from the same model classes are equal,
    /// and so is a schema decoded from one's encoded form; a property added, removed, renamed or retyped makes
    /// them unequal.
    ///
    /// ```swift
    /// let stored = try JSONDecoder().decode(Schema.self, from: data)
    /// if stored != Schema([Book.self, Author.self]) { … }   // the models changed since it was written
    /// ```
    public static func == (lhs: Schema, rhs: Schema) -> Bool {
        lhs === rhs || (lhs.version == rhs.version && lhs.entitiesByName == rhs.entitiesByName)
    }

    /// Hashes the schema's version and entity names.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(Set(entitiesByName.keys))
    }
}

extension Schema: CustomDebugStringConvertible {
    /// The schema as a debugger shows it: its version, then each entity with its attributes.
    public var debugDescription: String { "Schema \(version)\n\(description)" }
}

extension Schema.Entity: Hashable {
    /// Two entities are equal when they describe a model class the same way: name, superentity, attributes,
    /// relationships, uniqueness constraints and indices. The entities of one schema are equal only to
    /// themselves (their names differ); an entity decoded from an encoded schema equals the one it was encoded from.
    public static func == (lhs: Schema.Entity, rhs: Schema.Entity) -> Bool {
        lhs === rhs
            || (lhs.name == rhs.name && lhs.superentityName == rhs.superentityName
                && lhs.uniquenessConstraints == rhs.uniquenessConstraints && lhs.indices == rhs.indices
                && lhs.attributes == rhs.attributes && lhs.relationships == rhs.relationships)
    }

    /// Hashes the entity's name.
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
