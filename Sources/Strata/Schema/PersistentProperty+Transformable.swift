extension PersistentProperty {
    /// Declares an `@Attribute(.transformable(by:))` property, stored as the data its value transformer makes.
    // Disfavored, so an optional property takes the overload below and stores `nil` as `NULL`.
    @_disfavoredOverload
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, transformable attribute: Schema.Attribute) {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: attribute,
            codec: .transformed(by: attribute.transformerReference))
    }

    /// Declares an optional `@Attribute(.transformable(by:))` property (`NULL` for `nil`).
    public init<Wrapped>(
        index: Int, name: String, keyPath: KeyPath<Model, Wrapped?>, transformable attribute: Schema.Attribute
    ) where Value == Wrapped? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: attribute,
            codec: .optionalTransformed(Wrapped.self, by: attribute.transformerReference))
    }
}

extension Schema.Attribute {
    /// The transformer of the attribute's `.transformable(by:)` option.
    var transformerReference: ValueTransformerReference {
        options.lazy.compactMap(\.transformer).first ?? .name("")
    }
}
