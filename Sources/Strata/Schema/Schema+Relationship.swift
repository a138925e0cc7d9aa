extension Schema {
    /// How a relationship between models is configured: the arguments of `@Relationship`.
    public final class Relationship: Sendable {
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
        /// The relationship's name in a previous schema version.
        public let originalName: String?
        /// The key path of the inverse relationship on the destination, if given.
        public var inverseKeyPath: AnyKeyPath? { inverseBox.keyPath }
        /// A value that forces a new schema version hash. Accepted for source compatibility.
        public let hashModifier: String?
        private let inverseBox: KeyPathBox

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
            self.originalName = originalName
            self.inverseBox = KeyPathBox(keyPath: inverse)
            self.hashModifier = hashModifier
        }
    }
}

/// Holds a key path so a `Sendable` type can keep one (key paths are immutable).
package struct KeyPathBox: @unchecked Sendable {
    package let keyPath: AnyKeyPath?
}
