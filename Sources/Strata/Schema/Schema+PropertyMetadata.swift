extension Schema {
    /// One persistent property of a model class, as the `@Model` macro reports it in `schemaMetadata`.
    public struct PropertyMetadata: @unchecked Sendable {
        // `@unchecked` because of `Any` fields, which only ever hold immutable values.
        /// The property's name.
        public var name: String { property.name }
        /// The key path to the property.
        public var keypath: AnyKeyPath { property.anyKeyPath }
        /// The default value, when known. Strata leaves it `nil`: defaults live in the model's initializer.
        public let defaultValue: Any?
        /// The `Schema.Attribute` or `Schema.Relationship` the property was annotated with, if any.
        public var metadata: Any? { property.metadata }
        package let property: any AnyPersistentProperty

        /// Wraps a property declared by the `@Model` macro.
        public init<Model: AnyObject, Value>(_ property: PersistentProperty<Model, Value>) {
            self.property = property
            self.defaultValue = nil
        }
    }
}
