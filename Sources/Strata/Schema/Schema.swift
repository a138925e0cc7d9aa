/// The entities of a set of model classes: their attributes, relationships, indexes and uniqueness constraints.
///
/// ```swift
/// let schema = Schema([Book.self, Author.self])
/// let container = try ModelContainer(for: schema)
/// ```
public final class Schema: Sendable, CustomStringConvertible {
    /// A schema version, as in SwiftData's versioned schemas.
    public struct Version: Sendable, Hashable, CustomStringConvertible, Codable, Comparable {
        /// The major version number.
        public let major: Int
        /// The minor version number.
        public let minor: Int
        /// The patch version number.
        public let patch: Int
        /// Creates a version number.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }
        public var description: String { "\(major).\(minor).\(patch)" }

        /// Orders versions by major, then minor, then patch number.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }
    }

    /// The entities, one per model class: the classes given, then those reached through their relationships.
    public let entities: [Entity]
    /// The schema's version.
    public let version: Version
    /// The format the schema's encoded form is written in: ``schemaEncodingVersion`` for a schema built from model
    /// classes, the format it was read from for a decoded one.
    public let encodingVersion: Version
    /// The version identifier of the `VersionedSchema` the schema was made from, recorded in the store it opens.
    package let versionIdentifier: Version?
    /// The entities by name (a model class's name, as ``entityName(for:)`` gives it).
    public let entitiesByName: [String: Entity]
    private let entitiesByType: [ObjectIdentifier: Entity]
    /// What is wrong with the models' relationships, if anything; a container refuses such a schema.
    package let problems: [StrataError]

    /// Creates a schema from model classes and every model class they reach through relationships.
    ///
    /// As in SwiftData, `Schema([Trip.self])` also holds the models a trip's relationships lead to, and theirs:
    /// the given classes come first, then the discovered ones (see `reachableModelTypes(from:)`). Duplicate
    /// classes are ignored.
    public convenience init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        self.init(types, version: version, versionIdentifier: nil)
    }

    package init(_ types: [any PersistentModel.Type], version: Version, versionIdentifier: Version?) {
        let entities = Self.reachableModelTypes(from: types).map(Entity.init(modelType:))
        self.entities = entities
        self.version = version
        self.encodingVersion = Self.schemaEncodingVersion
        self.versionIdentifier = versionIdentifier
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.entitiesByType = Dictionary(uniqueKeysWithValues: entities.map { (ObjectIdentifier($0.modelType), $0) })
        Self.linkHierarchies(of: entities)
        self.problems = Self.resolveRelationships(of: entities)
        for entity in entities {
            entity.modelsReadRelationshipsWhenMade = entity.selfAndDescendants.contains { member in
                member.constantPropertyIndexes.contains {
                    member.persistentProperties[$0].relationshipDestination != nil
                }
            }
        }
    }

    /// A schema of some of `schema`'s entities, the very same objects (their relationships stay resolved as in
    /// `schema`): what one store holds when a container spreads its models over several.
    package init(sharing entities: [Entity], of schema: Schema) {
        self.entities = entities
        self.version = schema.version
        self.encodingVersion = schema.encodingVersion
        self.versionIdentifier = schema.versionIdentifier
        self.entitiesByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.entitiesByType = Dictionary(uniqueKeysWithValues: entities.map { (ObjectIdentifier($0.modelType), $0) })
        self.problems = []
    }

    /// A schema decoded from its encoded form: entities that describe model classes without naming them, linked to
    /// their superentities by name. A container refuses it (see `problems`).
    package init(decoded entities: [Entity], version: Version, encodingVersion: Version) {
        self.entities = entities
        self.version = version
        self.encodingVersion = encodingVersion
        self.versionIdentifier = nil
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.entitiesByName = byName
        self.entitiesByType = [:]
        for entity in entities {
            guard let parentName = entity.decodedSuperentityName, let parent = byName[parentName] else { continue }
            entity.parentEntity = parent
            parent.childEntities.append(entity)
        }
        if let entity = entities.first {
            let reason =
                "the schema was decoded from its encoded form and names no model class; a container opens a schema "
                + "made from the model classes, such as Schema([\(entity.name).self]), which can be compared with the "
                + "decoded one"
            self.problems = [StrataError.invalidSchema(entity: entity.name, reason: reason)]
        } else {
            self.problems = []
        }
    }

    /// Creates a schema from model classes.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The name of a model class's entity: the class's name, as in SwiftData.
    public static func entityName(for type: any PersistentModel.Type) -> String {
        String(describing: type)
    }

    /// The entity with the given name, if the schema has one.
    public func entity(named name: String) -> Entity? { entitiesByName[name] }

    /// The entity of a model class, if the schema has it.
    public func entity<Model: PersistentModel>(for type: Model.Type) -> Entity? {
        entitiesByType[ObjectIdentifier(type)]
    }

    package func entity(forType type: any PersistentModel.Type) -> Entity? {
        entitiesByType[ObjectIdentifier(type)]
    }

    public var description: String {
        entities.map(\.description).joined(separator: "\n")
    }
}
