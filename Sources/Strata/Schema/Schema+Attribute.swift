extension Schema {
    /// How a stored attribute is configured: the arguments of `@Attribute`, and, once a schema is built, the
    /// attribute's resolved name and type.
    public final class Attribute: Sendable, CustomStringConvertible {
        /// Options that change how an attribute is stored.
        public struct Option: Sendable, Hashable {
            let name: String
            /// The attribute's value is unique across all models of the entity. Inserting a model with a value
            /// that already exists updates the existing model (an upsert), unless the context's merge policy says otherwise.
            public static let unique = Option(name: "unique")
            /// Store the value outside the table. Strata accepts it and stores the value inline.
            public static let externalStorage = Option(name: "externalStorage")
            /// Keep the value in the history after the model is deleted: the deletion's `HistoryDelete.tombstone`
            /// holds it.
            public static let preserveValueOnDeletion = Option(name: "preserveValueOnDeletion")
            /// Mark the attribute for Spotlight indexing. Accepted for source compatibility; it has no effect.
            public static let spotlight = Option(name: "spotlight")
            /// Encrypt the value in CloudKit. Accepted for source compatibility; it has no effect.
            public static let allowsCloudEncryption = Option(name: "allowsCloudEncryption")
            /// Keep the value in memory only. Accepted for source compatibility; it has no effect.
            public static let ephemeral = Option(name: "ephemeral")
            /// Store a `Codable` value through its codable representation as one opaque value: predicates and
            /// sorts can't reach its fields, which otherwise they can (a composite attribute).
            public static let codable = Option(name: "codable")
        }

        /// The options given to `@Attribute`.
        public let options: [Option]
        /// The attribute's name in a previous schema version, if it was renamed.
        public let originalName: String?
        /// A value that forces a new schema version hash. Accepted for source compatibility.
        public let hashModifier: String?
        /// The attribute's name (empty until the attribute belongs to a schema).
        public let name: String
        /// Whether the attribute can hold `nil`.
        public let isOptional: Bool
        /// The attribute's Swift value type (`Any.self` until the attribute belongs to a schema).
        public var valueType: Any.Type { valueTypeBox.type }
        /// Whether `.unique` is among the options.
        public var isUnique: Bool { options.contains(.unique) }
        /// Whether the value is stored opaquely through its codable representation (`.codable` is among the
        /// options), so predicates and sorts can't reach its fields.
        public var isCodable: Bool { options.contains(.codable) }
        package let storageClass: StorageClass
        private let valueTypeBox: MetatypeBox

        /// Describes an attribute, as `@Attribute` does.
        ///
        /// ```swift
        /// @Attribute(.unique) var isbn: String
        /// @Attribute(originalName: "writer") var author: String
        /// ```
        public init(_ options: Option..., originalName: String? = nil, hashModifier: String? = nil) {
            self.options = options
            self.originalName = originalName
            self.hashModifier = hashModifier
            self.name = ""
            self.isOptional = false
            self.storageClass = .text
            self.valueTypeBox = MetatypeBox(type: Any.self)
        }

        package init(name: String, configuration: Attribute?, storageClass: StorageClass, isOptional: Bool, valueType: Any.Type) {
            self.options = configuration?.options ?? []
            self.originalName = configuration?.originalName
            self.hashModifier = configuration?.hashModifier
            self.name = name
            self.isOptional = isOptional
            self.storageClass = storageClass
            self.valueTypeBox = MetatypeBox(type: valueType)
        }

        public var description: String {
            "\(name): \(valueType)\(isOptional ? "?" : "")\(options.isEmpty ? "" : " \(options.map(\.name))")"
        }
    }
}

/// Holds a metatype so a `Sendable` type can keep one (metatypes are immutable).
package struct MetatypeBox: @unchecked Sendable {
    package let type: Any.Type
}
