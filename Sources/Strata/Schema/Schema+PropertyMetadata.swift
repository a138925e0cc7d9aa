extension Schema {
    /// One persistent property of a model class, as the `@Model` macro reports it in `schemaMetadata`.
    public struct PropertyMetadata: @unchecked Sendable {
        // `@unchecked` because of `Any` fields, which only ever hold immutable values.
        /// The property's name.
        public var name: String { property.name }
        /// The key path to the property.
        public var keypath: AnyKeyPath { property.anyKeyPath }
        /// The property's declared initial value (`var rating: Int = 0` reports `0`), or `nil` when it has none.
        /// A migration gives existing rows this value when the property is added.
        public let defaultValue: Any?
        /// The `Schema.Attribute` or `Schema.Relationship` the property was annotated with, if any.
        public var metadata: Any? { property.metadata }
        package let property: any AnyPersistentProperty

        /// Wraps a property declared by the `@Model` macro.
        public init<Model: AnyObject, Value>(_ property: PersistentProperty<Model, Value>) {
            self.property = property
            self.defaultValue = nil
        }

        /// Wraps a property declared by the `@Model` macro with its declared initial value.
        public init<Model: AnyObject, Value>(_ property: PersistentProperty<Model, Value>, defaultValue: Value) {
            self.property = property
            self.defaultValue = defaultValue
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
