extension Schema.Attribute: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, valueType, isOptional, options, originalName, hashModifier
    }

    /// Writes the attribute's description: name, value type (its full name, such as `Swift.Int`), optionality,
    /// options, original name and hash modifier. The declared initial value is not written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(valueTypeName, forKey: .valueType)
        try container.encode(isOptional, forKey: .isOptional)
        try container.encode(options, forKey: .options)
        try container.encodeIfPresent(previousName, forKey: .originalName)
        try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
    }

    /// Reads an attribute written by ``encode(to:)``; its ``valueType`` is `Any`, the type's name being all that
    /// was written.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            decodedName: try container.decode(String.self, forKey: .name),
            options: try container.decode([Option].self, forKey: .options),
            previousName: try container.decodeIfPresent(String.self, forKey: .originalName),
            hashModifier: try container.decodeIfPresent(String.self, forKey: .hashModifier),
            isOptional: try container.decode(Bool.self, forKey: .isOptional),
            valueTypeName: try container.decode(String.self, forKey: .valueType))
    }
}

extension Schema.Attribute.Option: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, transformer
    }

    /// Writes the option's name, and for `.transformable(by:)` the transformer's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encodeIfPresent(transformer?.name, forKey: .transformer)
    }

    /// Reads an option written by ``encode(to:)``; a transformer is found by its name.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decode(String.self, forKey: .name),
            transformer: try container.decodeIfPresent(String.self, forKey: .transformer).map { .name($0) })
    }
}

extension Schema.Relationship: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, destination, inverseName, isToOneRelationship, isOptional, deleteRule, options, originalName,
            minimumModelCount, maximumModelCount, hashModifier
    }

    /// Writes the relationship's description: name, destination entity, inverse's name, cardinality, optionality,
    /// delete rule, options, original name, counts and hash modifier. Key paths are not written.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(destination, forKey: .destination)
        try container.encodeIfPresent(inverseName, forKey: .inverseName)
        try container.encode(isToOneRelationship, forKey: .isToOneRelationship)
        try container.encode(isOptional, forKey: .isOptional)
        try container.encode(deleteRule, forKey: .deleteRule)
        try container.encode(options, forKey: .options)
        try container.encodeIfPresent(previousName, forKey: .originalName)
        try container.encodeIfPresent(minimumModelCount, forKey: .minimumModelCount)
        try container.encodeIfPresent(maximumModelCount, forKey: .maximumModelCount)
        try container.encodeIfPresent(hashModifier, forKey: .hashModifier)
    }

    /// Reads a relationship written by ``encode(to:)``; it has no key paths, and its ``valueType`` is `Any`.
    public convenience init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            decodedName: try container.decode(String.self, forKey: .name),
            destination: try container.decode(String.self, forKey: .destination),
            inverseName: try container.decodeIfPresent(String.self, forKey: .inverseName),
            isToOne: try container.decode(Bool.self, forKey: .isToOneRelationship),
            isOptional: try container.decode(Bool.self, forKey: .isOptional),
            deleteRule: try container.decode(DeleteRule.self, forKey: .deleteRule),
            options: try container.decode([Option].self, forKey: .options),
            previousName: try container.decodeIfPresent(String.self, forKey: .originalName),
            minimumModelCount: try container.decodeIfPresent(Int.self, forKey: .minimumModelCount),
            maximumModelCount: try container.decodeIfPresent(Int.self, forKey: .maximumModelCount),
            hashModifier: try container.decodeIfPresent(String.self, forKey: .hashModifier))
    }
}

extension Schema.Relationship.Option: Codable {
    /// Writes the option's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// Reads an option written by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        self.init(name: try decoder.singleValueContainer().decode(String.self))
    }
}
