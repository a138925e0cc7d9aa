extension Schema {
    /// How a stored attribute is configured: the arguments of `@Attribute`, and, once a schema is built, the
    /// attribute's resolved name and type.
    public final class Attribute: SchemaProperty, @unchecked Sendable, CustomStringConvertible {
        // `@unchecked` because of the default value (`Any`), which is immutable once the schema is built.
        /// Options that change how an attribute is stored.
        public struct Option: Sendable, Hashable {
            let name: String
            /// The transformer of a `.transformable(by:)` option.
            let transformer: ValueTransformerReference?

            init(name: String, transformer: ValueTransformerReference? = nil) {
                self.name = name
                self.transformer = transformer
            }

            /// Store the value as the data a value transformer makes of it, the transformer being found by its
            /// type: the one registered under the type's name, else a new instance. An unarchiving transformer
            /// (``NSSecureUnarchiveFromDataTransformer`` and its subclasses) stores the value through its reverse
            /// transformation and reads it through its forward one, as Core Data does; any other the other way
            /// round. The value type needn't be `Codable`; predicates and sorts can't reach it.
            public static func transformable(by transformerType: ValueTransformer.Type) -> Option {
                Option(name: "transformable", transformer: .type(transformerType))
            }

            /// Store the value as the data the value transformer registered under `transformerName` makes of it
            /// (see ``transformable(by:)-(ValueTransformer.Type)``). Assigning a value before the transformer is
            /// registered makes the next save throw `StrataError.unrepresentableValue`.
            public static func transformable(by transformerName: String) -> Option {
                Option(name: "transformable", transformer: .name(transformerName))
            }

            public static func == (lhs: Option, rhs: Option) -> Bool {
                lhs.name == rhs.name && lhs.transformer?.name == rhs.transformer?.name
            }

            public func hash(into hasher: inout Hasher) {
                hasher.combine(name)
                hasher.combine(transformer?.name)
            }
            /// The attribute's value is unique across all models of the entity. Inserting a model with a value
            /// that already exists updates the existing model (an upsert), unless the context's merge policy says otherwise.
            public static let unique = Option(name: "unique")
            /// Store the value outside the table. Accepted; the value is stored in its row, where SQLite keeps large
            /// values in overflow pages and PostgreSQL moves them out of line itself (TOAST), so a fetch that doesn't
            /// read the column doesn't read the value either.
            public static let externalStorage = Option(name: "externalStorage")
            /// Keep the value in the history after the model is deleted: the deletion's `HistoryDelete.tombstone`
            /// holds it.
            public static let preserveValueOnDeletion = Option(name: "preserveValueOnDeletion")
            /// Mark the attribute for Spotlight indexing. Accepted for source compatibility; it has no effect, since
            /// Linux has no Spotlight index to add it to.
            public static let spotlight = Option(name: "spotlight")
            /// Encrypt the value in CloudKit. Accepted for source compatibility; it has no effect, since Strata
            /// mirrors nothing to CloudKit (see `ModelConfiguration.CloudKitDatabase`).
            public static let allowsCloudEncryption = Option(name: "allowsCloudEncryption")
            /// Track changes to the value, but never save it: the property is observed like any other, and changing
            /// it gives the model and its context unsaved changes (``ModelContext/hasChanges``), but the store never
            /// holds it, and a model loaded from the store starts with the declared initial value. Any type will do,
            /// `Codable` or not. The entity lists the attribute, with this option (``Schema/Attribute/isTransient``),
            /// and leaves it out of ``Schema/Entity/storedProperties``.
            public static let ephemeral = Option(name: "ephemeral")
            /// Store a `Codable` value through its codable representation as one opaque value: predicates and
            /// sorts can't reach its fields, which otherwise they can (a composite attribute).
            public static let codable = Option(name: "codable")
        }

        /// The options given to `@Attribute`.
        public let options: [Option]
        /// The attribute's name in a previous schema version (`originalName:`), or ``name`` when it wasn't renamed.
        public var originalName: String { previousName ?? name }
        /// A value that forces a new schema version hash. Accepted for source compatibility.
        public let hashModifier: String?
        /// The attribute's name (empty until the attribute belongs to a schema).
        public let name: String
        /// Whether the attribute can hold `nil`.
        public let isOptional: Bool
        /// The attribute's Swift value type, `Int` for an `Int?` (`Any.self` until the attribute belongs to a schema).
        public var valueType: any Any.Type { valueTypeBox.type }
        /// The property's declared initial value (`var rating = 0` reports `0`), or `nil` when it has none.
        public let defaultValue: Any?
        /// Whether `.unique` is among the options.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the value is stored opaquely through its codable representation (`.codable` is among the
        /// options), so predicates and sorts can't reach its fields.
        public var isCodable: Bool { options.contains(.codable) }
        /// Whether `.ephemeral` is among the options: the value is never stored.
        public var isTransient: Bool { options.contains(.ephemeral) }
        /// Whether the value is stored through a `ValueTransformer` (`.transformable(by:)`).
        public var isTransformable: Bool { options.contains { $0.name == "transformable" } }
        /// `true`: an attribute is an attribute.
        public var isAttribute: Bool { true }
        /// `false`: an attribute is not a relationship.
        public var isRelationship: Bool { false }
        /// The name given as `originalName:`, if any: the name a migration looks for in the store.
        package let previousName: String?
        package let storageClass: StorageClass
        /// The value type's full name (`Swift.Int`), what an encoded schema keeps of ``valueType`` and what
        /// equality compares: an attribute decoded from an encoded schema has its name but no Swift type.
        package let valueTypeName: String
        private let valueTypeBox: MetatypeBox

        /// Describes an attribute, as `@Attribute` does.
        ///
        /// ```swift
        /// @Attribute(.unique) var isbn: String
        /// @Attribute(originalName: "writer") var author: String
        /// ```
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.previousName = originalName
            self.hashModifier = hashModifier
            self.name = ""
            self.isOptional = false
            self.defaultValue = nil
            self.storageClass = .text
            self.valueTypeName = String(reflecting: Any.self)
            self.valueTypeBox = MetatypeBox(type: Any.self)
        }

        package init(
            name: String, configuration: Attribute?, storageClass: StorageClass, isOptional: Bool, valueType: Any.Type,
            defaultValue: Any?
        ) {
            self.options = configuration?.options ?? []
            self.previousName = configuration?.previousName
            self.hashModifier = configuration?.hashModifier
            self.name = name
            self.isOptional = isOptional
            self.defaultValue = defaultValue
            self.storageClass = storageClass
            self.valueTypeName = String(reflecting: valueType)
            self.valueTypeBox = MetatypeBox(type: valueType)
        }

        /// An attribute decoded from an encoded schema: its description without a Swift value type.
        package init(
            decodedName name: String, options: [Option], previousName: String?, hashModifier: String?,
            isOptional: Bool, valueTypeName: String
        ) {
            self.options = options
            self.previousName = previousName
            self.hashModifier = hashModifier
            self.name = name
            self.isOptional = isOptional
            self.defaultValue = nil
            self.storageClass = .text
            self.valueTypeName = valueTypeName
            self.valueTypeBox = MetatypeBox(type: Any.self)
        }

        /// The schema's description of an `@Attribute(.ephemeral)` property, made by code `@Model` generates:
        /// `configuration` holds the options given to `@Attribute`, `keyPath` gives the value type.
        public static func _ephemeral<Root, Value>(
            name: String, configuration: Attribute?, keyPath: KeyPath<Root, Value>
        ) -> Attribute {
            let unwrapped = (Value.self as? any EphemeralOptional.Type)?.ephemeralWrappedType
            return Attribute(
                name: name, configuration: configuration, storageClass: .text, isOptional: unwrapped != nil,
                valueType: unwrapped ?? Value.self, defaultValue: nil)
        }

        /// Two attributes are equal when they describe the same property the same way: name, value type (by its
        /// full name, so an attribute decoded from an encoded schema equals the one it was encoded from),
        /// optionality, options, original name and hash modifier. The declared initial value is not compared.
        public static func == (lhs: Attribute, rhs: Attribute) -> Bool {
            lhs === rhs
                || (lhs.name == rhs.name && lhs.valueTypeName == rhs.valueTypeName && lhs.isOptional == rhs.isOptional
                    && lhs.options == rhs.options && lhs.previousName == rhs.previousName
                    && lhs.hashModifier == rhs.hashModifier)
        }

        /// Hashes the attribute's name and value type.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(valueTypeName)
        }

        public var description: String {
            "\(name): \(valueType)\(isOptional ? "?" : "")\(options.isEmpty ? "" : " \(options.map(\.name))")"
        }
    }
}

/// An `Optional` type, whose wrapped type an ephemeral attribute reports as its value type.
protocol EphemeralOptional {
    /// The type the optional wraps.
    static var ephemeralWrappedType: any Any.Type { get }
}

extension Optional: EphemeralOptional {
    static var ephemeralWrappedType: any Any.Type { Wrapped.self }
}

/// Holds a metatype so a `Sendable` type can keep one (metatypes are immutable).
package struct MetatypeBox: @unchecked Sendable {
    package let type: Any.Type
}
