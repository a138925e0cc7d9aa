/// One stored property of a model class, as the `@Model` macro declares it.
///
/// The macro emits one static `PersistentProperty` per stored property; its initializer overloads pick how the
/// value is stored (a column, a raw value, JSON text, or a relationship) from the property's type at compile time.
/// You don't create these yourself.
public struct PersistentProperty<Model: AnyObject, Value>: @unchecked Sendable {
    // `@unchecked` because of the key path and the `Any` metadata, both immutable.
    /// The property's position among the model's persistent properties.
    public let index: Int
    /// The property's name in Swift.
    public let name: String
    /// The key path to the property.
    public let keyPath: KeyPath<Model, Value>
    /// The `Schema.Attribute` or `Schema.Relationship` the property was annotated with, if any.
    public let metadata: (any Sendable)?
    @usableFromInline package let codec: ValueCodec<Value>
    /// Whether the property is a `let`, whose value lives in the model's own storage (see ``constant()``).
    package private(set) var isConstant = false

    @usableFromInline
    package init(
        index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?, codec: ValueCodec<Value>
    ) {
        self.index = index
        self.name = name
        self.keyPath = keyPath
        self.metadata = metadata
        self.codec = codec
    }
}

extension PersistentProperty where Value: StorableValue {
    /// Declares a property stored in one column.
    @inlinable
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?) {
        self.init(index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .storable)
    }
}

extension PersistentProperty {
    /// Declares an optional property stored in one column (`NULL` for `nil`).
    @inlinable
    public init<Wrapped: StorableValue>(
        index: Int, name: String, keyPath: KeyPath<Model, Wrapped?>, metadata: (any Sendable)?
    ) where Value == Wrapped? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .optionalStorable(Wrapped.self))
    }

    /// Declares a property of a raw-value enumeration, stored by raw value.
    @inlinable
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?)
    where Value: RawRepresentable, Value.RawValue: StorableValue {
        self.init(index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .rawRepresentable())
    }

    /// Declares a property of a `Codable` raw-value enumeration, stored by raw value.
    @inlinable
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?)
    where Value: RawRepresentable & Codable, Value.RawValue: StorableValue {
        self.init(index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .rawRepresentable())
    }

    /// Declares an optional property of a raw-value enumeration, stored by raw value.
    @inlinable
    public init<Wrapped: RawRepresentable>(
        index: Int, name: String, keyPath: KeyPath<Model, Wrapped?>, metadata: (any Sendable)?
    ) where Value == Wrapped?, Wrapped.RawValue: StorableValue {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .optionalRawRepresentable(Wrapped.self))
    }

    /// Declares an optional property of a `Codable` raw-value enumeration, stored by raw value.
    @inlinable
    public init<Wrapped: RawRepresentable & Codable>(
        index: Int, name: String, keyPath: KeyPath<Model, Wrapped?>, metadata: (any Sendable)?
    ) where Value == Wrapped?, Wrapped.RawValue: StorableValue {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .optionalRawRepresentable(Wrapped.self))
    }

    /// Declares a property of any other `Codable` type, stored as JSON text.
    // Disfavored: Swift prefers a non-generic overload to a generic one, so without this the JSON initializer
    // would beat the generic optional ones above and store `Int?` or `Date?` as JSON text in a NOT NULL column.
    @_disfavoredOverload @inlinable
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?)
    where Value: Codable {
        self.init(index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .json())
    }

    /// Declares an optional property of any other `Codable` type, stored as JSON text (`NULL` for `nil`).
    @inlinable
    public init<Wrapped: Codable>(
        index: Int, name: String, keyPath: KeyPath<Model, Wrapped?>, metadata: (any Sendable)?
    ) where Value == Wrapped? {
        self.init(index: index, name: name, keyPath: keyPath, metadata: metadata, codec: .optionalJSON(Wrapped.self))
    }
}

extension PersistentProperty {
    /// The same property, declared with `let`: the `@Model` macro marks `let` properties so, since Swift keeps their
    /// value in the model's own storage. `init(backingData:)` sets it from the row, and inserting the model copies
    /// it into the backing data, so it is saved like any other property.
    public func constant() -> PersistentProperty {
        var copy = self
        copy.isConstant = true
        return copy
    }
}

/// The zero-size storage the `@Model` macro gives each persistent property, so that Swift's definite
/// initialization makes an initializer assign every property, as in SwiftData.
public struct _PersistedSlot: Sendable {
    /// Creates the slot.
    @inlinable public init() {}
}

extension PersistentProperty {
    /// Declares a to-one relationship to another model.
    @inlinable
    public init(index: Int, name: String, keyPath: KeyPath<Model, Value>, metadata: (any Sendable)?)
    where Value: PersistentModel {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toOne(destination: String(describing: Value.self)), isOptional: false, destination: Value.self))
    }

    /// Declares an optional to-one relationship to another model.
    @inlinable
    public init<Destination: PersistentModel>(
        index: Int, name: String, keyPath: KeyPath<Model, Destination?>, metadata: (any Sendable)?
    ) where Value == Destination? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toOne(destination: String(describing: Destination.self)), isOptional: true,
                destination: Destination.self))
    }

    /// Declares an optional to-many relationship to other models (`var items: [Item]? = []`), as CloudKit-ready
    /// SwiftData models declare them. As in SwiftData, it reads as an empty array, never `nil`, and assigning `nil`
    /// empties it.
    @inlinable
    public init<Destination: PersistentModel>(
        index: Int, name: String, keyPath: KeyPath<Model, [Destination]?>, metadata: (any Sendable)?
    ) where Value == [Destination]? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toMany(destination: String(describing: Destination.self)), isOptional: true,
                destination: Destination.self))
    }

    // A model class may itself be `Codable` (apps that seed their store from JSON make it so). Then the optional
    // relationship initializers above and the optional JSON one are equally specific, and Swift can pick neither;
    // these more constrained twins are more specific than both, so a `Codable` model is still a relationship.

    /// Declares an optional to-one relationship to a model class that is also `Codable`.
    @inlinable
    public init<Destination: PersistentModel & Codable>(
        index: Int, name: String, keyPath: KeyPath<Model, Destination?>, metadata: (any Sendable)?
    ) where Value == Destination? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toOne(destination: String(describing: Destination.self)), isOptional: true,
                destination: Destination.self))
    }

    /// Declares an optional to-many relationship to a model class that is also `Codable` (see the initializer
    /// for `[Destination]?` above).
    @inlinable
    public init<Destination: PersistentModel & Codable>(
        index: Int, name: String, keyPath: KeyPath<Model, [Destination]?>, metadata: (any Sendable)?
    ) where Value == [Destination]? {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toMany(destination: String(describing: Destination.self)), isOptional: true,
                destination: Destination.self))
    }

    /// Declares a to-many relationship to other models.
    @inlinable
    public init<Destination: PersistentModel>(
        index: Int, name: String, keyPath: KeyPath<Model, [Destination]>, metadata: (any Sendable)?
    ) where Value == [Destination] {
        self.init(
            index: index, name: name, keyPath: keyPath, metadata: metadata,
            codec: .relationship(
                .toMany(destination: String(describing: Destination.self)), isOptional: false,
                destination: Destination.self))
    }
}
