extension Schema: Codable {
    /// The format of the encoded schemas this version of Strata writes, and the newest it reads.
    public static let schemaEncodingVersion = Version(1, 0, 0)

    private enum CodingKeys: String, CodingKey {
        case encodingVersion, version, entities
    }

    /// Writes the schema's description: its version and each entity's name, superentity, attributes (name, value
    /// type by its full name, optionality, options, original name), relationships (destination, inverse,
    /// cardinality, delete rule, counts), uniqueness constraints and indices. Enough to compare the schema a store
    /// was written with to the app's with `==`; not the model classes themselves.
    ///
    /// ```swift
    /// let data = try JSONEncoder().encode(container.schema)
    /// ```
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(encodingVersion, forKey: .encodingVersion)
        try container.encode(version, forKey: .version)
        try container.encode(entities, forKey: .entities)
    }

    /// Reads a schema written by ``encode(to:)``. It equals the schema it was written from, and describes its
    /// models, but names no Swift class: a container refuses it, and its attributes' `valueType` is `Any`.
    ///
    /// - Throws: `DecodingError` when the data is no encoded schema, names one entity twice, or was written in a
    ///   format newer than ``schemaEncodingVersion``.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let encodingVersion = try container.decode(Version.self, forKey: .encodingVersion)
        guard encodingVersion.major <= Self.schemaEncodingVersion.major else {
            throw DecodingError.dataCorruptedError(
                forKey: .encodingVersion, in: container,
                debugDescription: "the schema was encoded in format \(encodingVersion), newer than the format "
                    + "\(Self.schemaEncodingVersion) this version of Strata reads")
        }
        let entities = try container.decode([Entity].self, forKey: .entities)
        var names = Set<String>()
        for entity in entities where !names.insert(entity.name).inserted {
            throw DecodingError.dataCorruptedError(
                forKey: .entities, in: container, debugDescription: "the schema names the entity '\(entity.name)' twice"
            )
        }
        self.init(
            decoded: entities, version: try container.decode(Version.self, forKey: .version),
            encodingVersion: encodingVersion)
    }
}

extension Schema.Entity: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, superentityName, attributes, relationships, uniquenessConstraints, indices
    }

    /// Writes the entity's description: name, superentity's name, attributes, relationships, uniqueness constraints
    /// and indices (see ``Schema/encode(to:)``).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(superentityName, forKey: .superentityName)
        try container.encode(declaredAttributes + ephemeralAttributes, forKey: .attributes)
        try container.encode(declaredRelationships, forKey: .relationships)
        try container.encode(uniquenessConstraints, forKey: .uniquenessConstraints)
        try container.encode(indices, forKey: .indices)
    }

    /// Reads an entity written by ``encode(to:)``: a description of a model class that names no Swift class.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            decodedName: try container.decode(String.self, forKey: .name),
            superentityName: try container.decodeIfPresent(String.self, forKey: .superentityName),
            attributes: try container.decode([Schema.Attribute].self, forKey: .attributes),
            relationships: try container.decode([Schema.Relationship].self, forKey: .relationships),
            uniquenessConstraints: try container.decode([[String]].self, forKey: .uniquenessConstraints),
            indices: try container.decode([[String]].self, forKey: .indices))
    }
}
