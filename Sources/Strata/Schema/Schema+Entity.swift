extension Schema {
    /// One model class as the store sees it: a table with a column per attribute.
    public final class Entity: @unchecked Sendable, CustomStringConvertible {
        // `@unchecked` because of key paths and the model metatype; everything is immutable after init.
        /// The entity's name: the model class's name.
        public let name: String
        /// The attributes: every stored property that isn't a relationship, `@Attribute(.ephemeral)` ones included.
        public var attributes: Set<Attribute> { Set(declaredAttributes + ephemeralAttributes) }
        /// The relationships to other models (or to models of the same class).
        public var relationships: Set<Relationship> { Set(declaredRelationships) }
        /// The attributes and relationships, the stored ones in declaration order, then the ephemeral ones.
        public var properties: [any SchemaProperty] {
            if isDecoded {
                return declaredAttributes.map { $0 as any SchemaProperty } + declaredRelationships + ephemeralAttributes
            }
            return persistentProperties.compactMap { property -> (any SchemaProperty)? in
                attributesByName[property.name] ?? relationshipsByName[property.name]
            } + ephemeralAttributes
        }
        /// The properties kept in the store, in declaration order: every property but the `@Attribute(.ephemeral)`
        /// ones.
        public var storedProperties: [any SchemaProperty] { properties.filter { !$0.isTransient } }
        /// The attributes by name.
        public let attributesByName: [String: Attribute]
        /// The relationships by name.
        public var relationshipsByName: [String: Relationship] {
            Dictionary(declaredRelationships.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The attributes and relationships by name.
        public var propertiesByName: [String: any SchemaProperty] {
            Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        }
        /// The stored properties by name.
        public var storedPropertiesByName: [String: any SchemaProperty] {
            propertiesByName.filter { !$0.value.isTransient }
        }
        /// The names of the properties that must be unique together, one array per constraint.
        public let uniquenessConstraints: [[String]]
        /// The properties indexed together, one array per index.
        public let indices: [[String]]
        /// The stored attributes, in declaration order.
        package let declaredAttributes: [Attribute]
        /// The `@Attribute(.ephemeral)` attributes, kept in memory only, in declaration order.
        package let ephemeralAttributes: [Attribute]
        /// The resolved relationships, in declaration order; set once by `Schema.init`, then never changed.
        package internal(set) var declaredRelationships: [Relationship] = []
        package let modelType: any PersistentModel.Type
        /// Whether the entity was decoded from an encoded schema: it describes a model class without naming one
        /// (its ``modelType`` is `DecodedEntityModel`), its attributes before its relationships.
        package let isDecoded: Bool
        /// The superentity's name a decoded entity was encoded with.
        let decodedSuperentityName: String?
        /// The persistent properties, attributes and relationships, by property index.
        package let persistentProperties: [any AnyPersistentProperty]
        /// Each property's declared initial value as stored, by property index (`nil`: none).
        package let defaultValues: [StoredValue?]
        private let propertyIndexByKeyPath: [AnyKeyPath: Int]
        private let propertyIndexByName: [String: Int]
        /// Resolved relationships by property index; set once by `Schema.init`, then never changed.
        package internal(set) var relationshipInfos: [Int: RelationshipInfo] = [:] {
            didSet {
                toOneForeignKeyIndexes = relationshipInfos.values.filter {
                    guard !$0.isToMany, case .foreignKey = $0.storage else { return false }
                    return true
                }.map(\.index).sorted()
                var destinations = [Entity?](repeating: nil, count: persistentProperties.count)
                for index in toOneForeignKeyIndexes where index < destinations.count {
                    destinations[index] = relationshipInfos[index]?.destination
                }
                toOneForeignKeyDestinations = destinations
            }
        }
        /// The indexes of the to-one relationships kept as a foreign key column of the entity's table.
        package private(set) var toOneForeignKeyIndexes: [Int] = []
        /// By property index, the destination of each to-one relationship kept as a foreign key (`nil` for every
        /// other property): what reading such a relationship needs, without copying its `RelationshipInfo`.
        @exclusivity(unchecked) package private(set) var toOneForeignKeyDestinations: [Entity?] = []
        /// The entity of the model's superclass, and those of its direct subclasses; set once by `Schema.init`.
        @exclusivity(unchecked) package internal(set) weak var parentEntity: Entity? {
            didSet { noteRootEntity() }
        }
        /// The identity of the hierarchy's root entity, kept as the hierarchy is linked; `nil` for a root. Read by
        /// ``identityKey`` on every lookup of a registered model, which would otherwise walk the weak
        /// ``parentEntity`` links.
        @exclusivity(unchecked) var rootEntityIdentity: ObjectIdentifier?
        package internal(set) var childEntities: [Entity] = []
        /// A subentity's inherited properties by their key paths rooted at its own class (`\Dog.name`); set once by
        /// `Schema.init`.
        package internal(set) var inheritedKeyPathIndexes: [AnyKeyPath: Int] = [:]
        /// The indexes of the properties kept in the entity's table (attributes and to-one foreign keys).
        package let columnPropertyIndexes: [Int]
        /// The indexes of the `let` properties, whose values live in the model's own storage.
        package let constantPropertyIndexes: [Int]
        /// Whether making a model of this entity or of a subentity reads a relationship (a `let` relationship
        /// takes its value in `init(backingData:)`), so a fetch makes its models only once the store has
        /// finished reading rows; set once by `Schema.init`.
        package internal(set) var modelsReadRelationshipsWhenMade = false
        /// The indexes of the attributes marked `.preserveValueOnDeletion`, whose values a deletion's history
        /// change keeps in its tombstone.
        package let preservedPropertyIndexes: [Int]
        /// How each property's stored values are validated as rows load, by property index, computed once so
        /// loading a row runs no generic code.
        package let rowValidations: [RowValidation]
        /// The storage classes each property accepts whatever the payload, by property index: a loaded value of
        /// one of them needs no further check (see ``StoredValueCheck/classesPassingWithoutPayload(isOptional:)``).
        package let classesPassingWithoutPayload: [StorageClasses]

        /// How one property's stored values are validated as rows load.
        package enum RowValidation {
            /// A foreign key: an integer or NULL.
            case foreignKey
            /// Decoded (and cached) on load: JSON and raw values.
            case decodeAndCache
            /// A cheap check, falling back to decoding when it can't decide.
            case check(StoredValueCheck, isOptional: Bool)
        }

        /// An entity decoded from an encoded schema: the description of a model class, without the class.
        package init(
            decodedName name: String, superentityName: String?, attributes: [Attribute], relationships: [Relationship],
            uniquenessConstraints: [[String]], indices: [[String]]
        ) {
            self.modelType = DecodedEntityModel.self
            self.isDecoded = true
            self.decodedSuperentityName = superentityName
            self.name = name
            self.declaredAttributes = attributes.filter { !$0.isTransient }
            self.ephemeralAttributes = attributes.filter(\.isTransient)
            self.attributesByName = Dictionary(
                attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            self.declaredRelationships = relationships
            self.uniquenessConstraints = uniquenessConstraints
            self.indices = indices
            self.persistentProperties = []
            self.defaultValues = []
            self.propertyIndexByKeyPath = [:]
            self.propertyIndexByName = [:]
            self.rowValidations = []
            self.classesPassingWithoutPayload = []
            self.columnPropertyIndexes = []
            self.constantPropertyIndexes = []
            self.preservedPropertyIndexes = []
        }

        init(modelType: any PersistentModel.Type) {
            self.modelType = modelType
            self.isDecoded = false
            self.decodedSuperentityName = nil
            self.name = Schema.entityName(for: modelType)
            let metadata = modelType.schemaMetadata
            let properties = metadata.map(\.property)
            self.persistentProperties = properties
            self.defaultValues = metadata.map(\.defaultStoredValue)
            let attributes = metadata.compactMap { entry -> Attribute? in
                let property = entry.property
                guard case .attribute(let storage) = property.kind else { return nil }
                return Attribute(
                    name: property.name, configuration: property.metadata as? Attribute,
                    storageClass: storage, isOptional: property.isOptional, valueType: property.valueType,
                    defaultValue: entry.defaultValue)
            }
            self.declaredAttributes = attributes
            self.ephemeralAttributes = modelType._$strataEphemeralAttributes
            self.attributesByName = Dictionary(
                (attributes + ephemeralAttributes).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            var keyPaths: [AnyKeyPath: Int] = [:]
            var names: [String: Int] = [:]
            for property in properties {
                keyPaths[property.anyKeyPath] = property.index
                names[property.name] = property.index
            }
            self.rowValidations = properties.map { property in
                if property.relationshipDestination != nil { return .foreignKey }
                if property.cachesDecodedValue { return .decodeAndCache }
                return .check(property.check, isOptional: property.isOptional)
            }
            self.classesPassingWithoutPayload = rowValidations.map { validation in
                switch validation {
                case .foreignKey: [.integer, .null]
                case .decodeAndCache: []
                case .check(let check, let isOptional): check.classesPassingWithoutPayload(isOptional: isOptional)
                }
            }
            self.columnPropertyIndexes = properties.filter { $0.relationshipDestination?.isToMany != true }.map(\.index)
            self.constantPropertyIndexes = properties.filter(\.isConstant).map(\.index)
            self.preservedPropertyIndexes = properties.filter { property in
                guard case .attribute = property.kind else { return false }
                return (property.metadata as? Attribute)?.options.contains(.preserveValueOnDeletion) == true
            }.map(\.index)
            self.propertyIndexByKeyPath = keyPaths
            self.propertyIndexByName = names
            let nameOf: (AnyKeyPath) -> String? = { keyPath in keyPaths[keyPath].map { properties[$0].name } }
            var unique = modelType._$strataUniqueConstraints.map { $0.compactMap(nameOf) }
            for attribute in attributes where attribute.isUnique { unique.append([attribute.name]) }
            self.uniquenessConstraints = unique.filter { !$0.isEmpty }
            self.indices = modelType._$strataIndices.map { $0.compactMap(nameOf) }.filter { !$0.isEmpty }
        }

        /// The property a key path of the model class leads to, if it is a persistent property.
        package func property(for keyPath: AnyKeyPath) -> (any AnyPersistentProperty)? {
            (propertyIndexByKeyPath[keyPath] ?? inheritedKeyPathIndexes[keyPath]).map { persistentProperties[$0] }
        }

        /// The persistent property with the given name, if any.
        package func property(named name: String) -> (any AnyPersistentProperty)? {
            propertyIndexByName[name].map { persistentProperties[$0] }
        }

        /// `keyPath` as a message names it: `\Resident.address.city`, where Swift's description spells the
        /// `@Model` accessors as `<computed 0x… (Type)>`.
        package func readableDescription(of keyPath: AnyKeyPath) -> String {
            let description = String(describing: keyPath)
            for property in persistentProperties {
                let own = String(describing: property.anyKeyPath)
                guard description.hasPrefix(own) else { continue }
                return "\\\(name).\(property.name)" + description.dropFirst(own.count)
            }
            return description
        }

        /// Key paths given to `#Index`/`#Unique` that are not persistent properties.
        package var unresolvedConstraintKeyPaths: [AnyKeyPath] {
            (modelType._$strataIndices + modelType._$strataUniqueConstraints).flatMap { $0 }
                .filter { propertyIndexByKeyPath[$0] == nil }
        }

        public var description: String {
            "\(name) { \(declaredAttributes.map(\.description).joined(separator: ", ")) }"
        }
    }
}
