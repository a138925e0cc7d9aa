extension Schema {
    /// How a relationship between models is configured: the arguments of `@Relationship`.
    ///
    /// The one `@Relationship` writes holds its arguments; the one a schema's entity lists (``Entity/relationships``)
    /// is also resolved: its name, destination, inverse and cardinality.
    public final class Relationship: SchemaProperty, @unchecked Sendable {
        // `@unchecked` because of the key paths and the value type, immutable once the schema is built.
        /// What happens to related models when a model is deleted.
        public enum DeleteRule: String, Sendable, Hashable, Codable {
            /// Clear the reference from the related models (the default).
            case nullify
            /// Delete the related models too.
            case cascade
            /// Refuse to delete while related models exist: `save()` throws.
            case deny
            /// Leave the related models as they are.
            case noAction
        }

        /// Options that change how a relationship is stored.
        public struct Option: Sendable, Hashable {
            let name: String
            /// The relationship's destination is unique.
            public static let unique = Option(name: "unique")
        }

        /// The options given to `@Relationship`.
        public let options: [Option]
        /// The delete rule.
        public let deleteRule: DeleteRule
        /// The fewest related models allowed (0 for no limit).
        public let minimumModelCount: Int?
        /// The most related models allowed (0 for no limit).
        public let maximumModelCount: Int?
        /// The relationship's name in a previous schema version (`originalName:`), or ``name`` when it wasn't renamed.
        public var originalName: String { previousName ?? name }
        /// The key path of the inverse relationship on the destination: given as `inverse:`, or, in a schema's
        /// entity, the one inferred.
        public var inverseKeyPath: AnyKeyPath? { inverseBox.keyPath }
        /// A value that forces a new schema version hash. Accepted for source compatibility.
        public let hashModifier: String?
        /// The relationship's name (empty outside a schema's entity).
        public let name: String
        /// The key path to the relationship's property (`nil` outside a schema's entity).
        public var keypath: AnyKeyPath? { keyPathBox.keyPath }
        /// The name of the destination entity (empty outside a schema's entity).
        public let destination: String
        /// The name of the inverse relationship on the destination, if it has one.
        public let inverseName: String?
        /// Whether the relationship refers to one model rather than many.
        public let isToOneRelationship: Bool
        /// Whether the relationship can be `nil` (an optional to-one, or a to-many declared `[Model]?`).
        public let isOptional: Bool
        /// The destination model class (`Any.self` outside a schema's entity).
        public var valueType: any Any.Type { valueTypeBox.type }
        /// Whether `.unique` is among the options.
        public var isUnique: Bool { options.contains(.unique) }
        /// `false`: relationships are stored.
        public var isTransient: Bool { false }
        /// `false`: a relationship is not an attribute.
        public var isAttribute: Bool { false }
        /// `true`: a relationship is a relationship.
        public var isRelationship: Bool { true }
        /// The name given as `originalName:`, if any: the name a migration looks for in the store.
        package let previousName: String?
        private let inverseBox: KeyPathBox
        private let keyPathBox: KeyPathBox
        private let valueTypeBox: MetatypeBox

        /// Describes a relationship, as `@Relationship` does.
        ///
        /// ```swift
        /// @Relationship(deleteRule: .cascade, inverse: \Chapter.book) var chapters: [Chapter] = []
        /// ```
        public init(
            _ options: Option..., deleteRule: DeleteRule = .nullify, minimumModelCount: Int? = 0,
            maximumModelCount: Int? = 0, originalName: String? = nil, inverse: AnyKeyPath? = nil,
            hashModifier: String? = nil
        ) {
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.previousName = originalName
            self.inverseBox = KeyPathBox(keyPath: inverse)
            self.hashModifier = hashModifier
            self.name = ""
            self.keyPathBox = KeyPathBox(keyPath: nil)
            self.destination = ""
            self.inverseName = nil
            self.isToOneRelationship = false
            self.isOptional = false
            self.valueTypeBox = MetatypeBox(type: Any.self)
        }

        /// The relationship `info` resolves in a schema, configured by `configuration` (what `@Relationship` wrote).
        package init(
            resolving info: RelationshipInfo, of property: any AnyPersistentProperty, configuration: Relationship?
        ) {
            self.options = configuration?.options ?? []
            self.deleteRule = info.deleteRule
            self.minimumModelCount = info.minimumModelCount
            self.maximumModelCount = info.maximumModelCount
            self.previousName = configuration?.previousName
            let inverse = info.inverseIndex.map { info.destination.persistentProperties[$0] }
            self.inverseBox = KeyPathBox(keyPath: inverse?.anyKeyPath ?? configuration?.inverseKeyPath)
            self.hashModifier = configuration?.hashModifier
            self.name = info.name
            self.keyPathBox = KeyPathBox(keyPath: property.anyKeyPath)
            self.destination = info.destination.name
            self.inverseName = inverse?.name
            self.isToOneRelationship = !info.isToMany
            self.isOptional = info.isOptional
            self.valueTypeBox = MetatypeBox(type: property.valueType)
        }

        /// A relationship decoded from an encoded schema: its description without key paths or a Swift type.
        package init(
            decodedName name: String, destination: String, inverseName: String?, isToOne: Bool, isOptional: Bool,
            deleteRule: DeleteRule, options: [Option], previousName: String?, minimumModelCount: Int?,
            maximumModelCount: Int?, hashModifier: String?
        ) {
            self.options = options
            self.deleteRule = deleteRule
            self.minimumModelCount = minimumModelCount
            self.maximumModelCount = maximumModelCount
            self.previousName = previousName
            self.inverseBox = KeyPathBox(keyPath: nil)
            self.hashModifier = hashModifier
            self.name = name
            self.keyPathBox = KeyPathBox(keyPath: nil)
            self.destination = destination
            self.inverseName = inverseName
            self.isToOneRelationship = isToOne
            self.isOptional = isOptional
            self.valueTypeBox = MetatypeBox(type: Any.self)
        }

        /// Two relationships are equal when they describe the same property the same way: name, destination
        /// entity, inverse, cardinality, optionality, delete rule, options, counts, original name and hash
        /// modifier. Key paths are not compared, so a relationship decoded from an encoded schema equals the one it
        /// was encoded from.
        public static func == (lhs: Relationship, rhs: Relationship) -> Bool {
            lhs === rhs
                || (lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.inverseName == rhs.inverseName
                    && lhs.isToOneRelationship == rhs.isToOneRelationship && lhs.isOptional == rhs.isOptional
                    && lhs.deleteRule == rhs.deleteRule && lhs.options == rhs.options
                    && lhs.previousName == rhs.previousName && lhs.minimumModelCount == rhs.minimumModelCount
                    && lhs.maximumModelCount == rhs.maximumModelCount && lhs.hashModifier == rhs.hashModifier)
        }

        /// Hashes the relationship's name and destination.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(destination)
        }
    }
}

/// Holds a key path so a `Sendable` type can keep one (key paths are immutable).
package struct KeyPathBox: @unchecked Sendable {
    package let keyPath: AnyKeyPath?
}
