/// Customizes how a stored property of a ``Model()`` class is persisted.
///
/// ```swift
/// @Attribute(.unique) var isbn: String
/// @Attribute(originalName: "writer") var author: String
/// ```
///
/// - Parameters:
///   - options: Storage options such as `.unique`.
///   - originalName: The property's name in an earlier schema version, for migration.
///   - hashModifier: A value that changes the property's version hash without renaming it.
@attached(peer)
public macro Attribute(
    _ options: Schema.Attribute.Option...,
    originalName: String? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "StrataMacros", type: "AttributeMacro")

/// Describes a property of a ``Model()`` class that refers to other models.
///
/// ```swift
/// @Relationship(deleteRule: .cascade, inverse: \Chapter.book) var chapters: [Chapter] = []
/// ```
///
/// - Parameters:
///   - options: Relationship options.
///   - deleteRule: What happens to the related models when this one is deleted.
///   - minimumModelCount: The fewest related models allowed (`0` for no limit).
///   - maximumModelCount: The most related models allowed (`0` for no limit).
///   - originalName: The property's name in an earlier schema version, for migration.
///   - inverse: The property on the related model that points back to this one.
///   - hashModifier: A value that changes the property's version hash without renaming it.
@attached(peer)
public macro Relationship(
    _ options: Schema.Relationship.Option...,
    deleteRule: Schema.Relationship.DeleteRule = .nullify,
    minimumModelCount: Int? = 0,
    maximumModelCount: Int? = 0,
    originalName: String? = nil,
    inverse: AnyKeyPath? = nil,
    hashModifier: String? = nil
) = #externalMacro(module: "StrataMacros", type: "RelationshipMacro")

/// Keeps a stored property of a ``Model()`` class out of the store.
///
/// The property must have a default value: models loaded from the store are created without
/// running your initializer. On a computed property, which is never stored, it changes nothing.
///
/// ```swift
/// @Transient var viewCount: Int = 0
/// ```
@attached(peer)
public macro Transient() = #externalMacro(module: "StrataMacros", type: "TransientMacro")
