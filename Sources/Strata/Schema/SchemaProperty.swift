/// A property of an entity, as its schema describes it: a ``Schema/Attribute`` or a ``Schema/Relationship``.
/// Properties are equal when they describe the same property the same way, and encode that description (see
/// ``Schema/encode(to:)``).
///
/// ```swift
/// for property in schema.entity(for: Book.self)?.properties ?? [] {
///     print(property.name, property.valueType, property.isOptional)
/// }
/// ```
public protocol SchemaProperty: Codable, Hashable {
    /// The property's name.
    var name: String { get }
    /// The property's name in an earlier schema version (`originalName:`), or its name when it wasn't renamed.
    var originalName: String { get }
    /// The property's Swift type: an attribute's value type (`Int` for `Int?`), a relationship's model class.
    var valueType: any Any.Type { get }
    /// Whether the property is an attribute.
    var isAttribute: Bool { get }
    /// Whether the property is a relationship.
    var isRelationship: Bool { get }
    /// Whether the property's value is kept in memory only (`@Attribute(.ephemeral)`).
    var isTransient: Bool { get }
    /// Whether the property can hold `nil`.
    var isOptional: Bool { get }
    /// Whether the property's value is unique across the entity's models.
    var isUnique: Bool { get }
}
