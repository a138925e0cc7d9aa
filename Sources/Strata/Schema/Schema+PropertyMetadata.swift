extension Schema {
    /// One persistent property of a model class, as the `@Model` macro reports it in `schemaMetadata`.
    ///
    /// Its stored fields are SwiftData's, in SwiftData's order (`name`, `keypath`, `defaultValue`, `metadata`), so
    /// code that reads them through `Mirror(reflecting:)`, as code written for SwiftData does, finds them by label.
    public struct PropertyMetadata: @unchecked Sendable {
        // `@unchecked` because of `Any` fields, which only ever hold immutable values.
        /// The property's name.
        public let name: String
        /// The key path to the property.
        public let keypath: AnyKeyPath
        /// The property's declared initial value (`var rating: Int = 0` reports `0`), or `nil` when it has none.
        /// A migration gives existing rows this value when the property is added.
        public let defaultValue: Any?
        /// The `Schema.Attribute` or `Schema.Relationship` the property was annotated with, if any.
        public let metadata: (any SchemaProperty)?
        /// The property as the store reads and writes it. Last, after SwiftData's fields.
        package let property: any AnyPersistentProperty

        private init(property: any AnyPersistentProperty, defaultValue: Any?) {
            self.name = property.name
            self.keypath = property.anyKeyPath
            self.defaultValue = defaultValue
            self.metadata = property.metadata as? any SchemaProperty
            self.property = property
        }

        /// Wraps a property declared by the `@Model` macro.
        public init<Model: AnyObject, Value>(_ property: PersistentProperty<Model, Value>) {
            self.init(property: property, defaultValue: nil)
        }

        /// Wraps a property declared by the `@Model` macro with its declared initial value.
        public init<Model: AnyObject, Value>(_ property: PersistentProperty<Model, Value>, defaultValue: Value) {
            self.init(property: property, defaultValue: defaultValue)
        }

        /// The default value as the store keeps it; `nil` when there is none, it is `nil`, or it can't be encoded.
        package var defaultStoredValue: StoredValue? {
            guard let defaultValue, let stored = try? property.encodeAny(defaultValue), stored != .null else {
                return nil
            }
            return stored
        }
    }
}
