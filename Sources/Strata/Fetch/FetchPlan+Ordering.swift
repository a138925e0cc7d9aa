import Foundation

extension FetchPlan {
    /// The store ordering for one sort descriptor: an attribute of the entity, or of a model reached through
    /// to-one relationships (`SortDescriptor(\Book.author?.name)`, ordered by a correlated subquery; books without
    /// an author sort first, as nil does in Swift), or `persistentModelID` (`SortDescriptor(\Book.persistentModelID)`,
    /// the order rows were first saved in: the primary key, as `PersistentIdentifier`'s `<` orders saved models).
    ///
    /// Strings are ordered with the `swift` collation: a key-path `SortDescriptor` compares Strings with Swift's `<`,
    /// which differs from byte order for canonically equivalent but differently encoded strings. One made with
    /// `comparator: .localizedStandard` orders as Finder does (the `localizedStandard` collation: case-insensitive,
    /// numbers by value) and `comparator: .localized` by the current locale, as on Apple's platforms.
    ///
    /// - Throws: `StrataError.unsupportedSortDescriptor` for a comparator without key path, or a key path that is
    ///   not a stored attribute reached through to-one relationships.
    static func ordering<T: PersistentModel>(
        for descriptor: SortDescriptor<T>, entity: Schema.Entity
    ) throws -> QueryOrdering {
        guard let keyPath = descriptor.keyPath else {
            throw StrataError.unsupportedSortDescriptor(
                description: "\(descriptor)", reason: "it compares with a custom comparator instead of a key path")
        }
        // Asked only for a key path that names no property: making the generic key path `\T.persistentModelID`
        // costs more than the rest of a sort key's translation.
        if entity.property(for: keyPath) == nil, keyPath == \T.persistentModelID {
            return QueryOrdering(
                expression: .column(StoreLayout.primaryKeyColumn),
                ascending: descriptor.order == .forward, collation: .binary)
        }
        let (path, property) = try SortKeyPath.resolve(keyPath, in: entity)
        let column = QueryExpression.attribute(property)
        let isString = property.valueType == String.self || property.valueType == String?.self
        return QueryOrdering(
            expression: path.hops.isEmpty ? column : .related(path, column),
            ascending: descriptor.order == .forward,
            collation: isString ? (descriptor.stringComparator?.strataCollation ?? .swift) : .binary)
    }
}

/// Finds the attribute, and the to-one relationships on the way, that a sort key path reads.
///
/// Swift can't take a key path apart, so a path through relationships (`\Book.author?.name`) is recognised by its
/// description, `String(describing:)`, which spells each component as the description of the corresponding
/// property's own key path does (a name, or `<computed 0x… (Type)>` for the accessors `@Model` generates), joined
/// by `.` and `?.`. A path the description doesn't explain fails with `unsupportedSortDescriptor`.
enum SortKeyPath {
    /// The to-one hops and the attribute at the end of `keyPath`.
    ///
    /// - Throws: `StrataError.unsupportedSortDescriptor` when `keyPath` is not a stored attribute of `entity`
    ///   or of an entity reached from it through to-one relationships.
    static func resolve(
        _ keyPath: AnyKeyPath, in entity: Schema.Entity
    ) throws -> (RelatedPath, any AnyPersistentProperty) {
        if let property = entity.property(for: keyPath), case .attribute = property.kind {
            return (RelatedPath(hops: []), property)
        }
        let description = String(describing: keyPath)
        let failure = StrataError.unsupportedSortDescriptor(
            description: description,
            reason: "not a stored attribute of \(entity.name) or of a model it reaches through to-one relationships")
        var rest = Substring(description)
        guard rest.hasPrefix(rootPrefix(of: entity)) else { throw failure }
        rest = rest.dropFirst(rootPrefix(of: entity).count)
        var owner = entity
        var hops: [RelationshipHop] = []
        while true {
            guard let property = component(at: rest, of: owner) else { throw failure }
            rest = rest.dropFirst(component(of: property, in: owner).count)
            if case .attribute = property.kind, property.storesJSON, rest.hasPrefix(".") || rest.hasPrefix("?.") {
                // `\Person.address.postcode`: a field of a composite attribute.
                return (RelatedPath(hops: hops), try compositeField(rest, of: property, in: owner, keyPath: keyPath))
            }
            if rest.hasPrefix("?") { rest = rest.dropFirst() }
            if case .attribute = property.kind {
                guard rest.isEmpty, !hops.isEmpty else { throw failure }
                return (RelatedPath(hops: hops), property)
            }
            guard rest.hasPrefix("."), case .toOne = property.kind,
                let hop = RelationshipHop(owner: owner, relationshipIndex: property.index)
            else { throw failure }
            rest = rest.dropFirst()
            hops.append(hop)
            owner = hop.destination
        }
    }

    /// The field of the composite attribute `property` that the rest of a description (`.postcode`,
    /// `?.location?.latitude`) names.
    private static func compositeField(
        _ rest: Substring, of property: any AnyPersistentProperty, in owner: Schema.Entity, keyPath: AnyKeyPath
    ) throws -> CompositeField {
        let components = rest.drop { $0 == "?" || $0 == "!" }.dropFirst()
        let lookup = CompositeField.field(
            components: components, type: type(of: keyPath).valueType, of: property, entity: owner)
        return try lookup.get { reason in
            StrataError.unsupportedSortDescriptor(
                description: String(describing: keyPath), reason: "\(owner.name).\(property.name): \(reason)")
        }
    }

    /// The property of `owner` whose component starts `text` (the longest, should one be a prefix of another).
    private static func component(at text: Substring, of owner: Schema.Entity) -> (any AnyPersistentProperty)? {
        owner.persistentProperties
            .filter { property in
                let component = component(of: property, in: owner)
                guard text.hasPrefix(component) else { return false }
                let next = text.dropFirst(component.count).first
                return next == nil || next == "?" || next == "."
            }
            .max { component(of: $0, in: owner).count < component(of: $1, in: owner).count }
    }

    /// How a key path description spells `property`: its own key path's description without the root type.
    private static func component(of property: any AnyPersistentProperty, in owner: Schema.Entity) -> String {
        String(String(describing: property.anyKeyPath).dropFirst(rootPrefix(of: owner).count))
    }

    /// `\Type.`: the start of every key path description rooted at `entity`'s model type.
    private static func rootPrefix(of entity: Schema.Entity) -> String {
        String(String(describing: identityKeyPath(of: entity.modelType)).dropLast("self".count))
    }

    private static func identityKeyPath<T: PersistentModel>(of _: T.Type) -> AnyKeyPath { \T.self }
}
