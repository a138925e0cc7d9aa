import Foundation

/// A field of a composite attribute (`$0.address.city`, `\Person.address.postcode`), standing in the query
/// translators where an attribute does: it compares, sorts and encodes constants as an attribute of the field's type,
/// reading its value out of the attribute's JSON column.
package struct CompositeField: AnyPersistentProperty {
    /// The composite attribute the field is inside.
    package let attribute: any AnyPersistentProperty
    /// The keys from the attribute's value to the field, and how it compares.
    package let path: CompositeFieldPath
    package let isOptional: Bool
    /// The field's type, without `Optional`.
    package let valueType: Any.Type

    package var index: Int { attribute.index }
    /// `address.city`: the attribute's name and the field's keys, for messages.
    package var name: String { ([attribute.name] + path.keys).joined(separator: ".") }
    package var anyKeyPath: AnyKeyPath { attribute.anyKeyPath }
    package var metadata: (any Sendable)? { attribute.metadata }
    package var kind: PropertyKind { .attribute(path.scalar.storageClass) }
    /// A raw-value enum field reads as its raw value (`$0.address.kind.rawValue`), as an enum attribute does.
    package var cachesDecodedValue: Bool { valueType is any RawRepresentable.Type }
    package var storesJSON: Bool { path.scalar == .json }
    package var check: StoredValueCheck { .decode }
    package var isConstant: Bool { false }

    /// The field's value as the store reads it from the attribute's column.
    package var expression: QueryExpression {
        .function(.compositeField(path), [.column(attribute.name)])
    }

    package func accepts(_ stored: StoredValue) -> Bool { true }
    package func decodeAny(_ stored: StoredValue) -> Any? { nil }
    package func notifyObservers(of model: any PersistentModel) {}
    package func captureConstant(of model: any PersistentModel) {}

    package func encodeAny(_ value: Any) throws -> StoredValue? {
        try path.scalar.storedValue(forConstant: value)
    }

    /// The field a member key path (`\Address.city`, rooted at the composite's type `Root`) names inside
    /// `owner`, which is a composite attribute or a field of one holding a struct.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` naming the model and attribute when the key path isn't a
    ///   stored field (a computed property, a subscript), the attribute is stored opaquely
    ///   (`@Attribute(.codable)`), or the field's type has no exact comparison in the store.
    package static func member<Root, Value>(
        _ keyPath: KeyPath<Root, Value>, of owner: any AnyPersistentProperty, entity: Schema.Entity, in node: String
    ) throws -> CompositeField {
        let description = String(describing: keyPath as AnyKeyPath)
        let prefix = String(String(describing: \Root.self as AnyKeyPath).dropLast("self".count))
        let failure = { (reason: String) in
            StrataError.unsupportedPredicate(expression: node, reason: "\(entity.name).\(owner.name): \(reason)")
        }
        guard description.hasPrefix(prefix) else {
            throw failure("\(description) is not a stored field of \(Root.self)")
        }
        return try field(
            components: Substring(description.dropFirst(prefix.count)), type: Value.self, of: owner, entity: entity
        )
        .get(failure)
    }

    /// The field that `components` (`city`, `location?.latitude`: the end of a key path's description) names
    /// inside `owner`; the field's Swift type is `type`.
    package static func field(
        components: Substring, type: Any.Type, of owner: any AnyPersistentProperty, entity: Schema.Entity
    ) -> FieldLookup {
        if let composite = owner as? CompositeField, composite.path.scalar != .json {
            return .failure("\(composite.valueType) is not a struct whose fields are stored")
        }
        guard owner.storesJSON else { return .failure("it is not a composite attribute") }
        if (owner.metadata as? Schema.Attribute)?.isCodable == true {
            return .failure("it is stored opaquely (@Attribute(.codable)); its fields can't be queried or sorted by")
        }
        var keys: [String] = []
        var optional = owner.isOptional
        for component in components.split(separator: ".", omittingEmptySubsequences: false) {
            var name = component
            while let last = name.last, last == "?" || last == "!" {
                optional = optional || last == "?"
                name = name.dropLast()
            }
            guard !name.isEmpty, !name.contains("<"), !name.contains("["), !name.contains("(") else {
                return .failure(
                    "\(components) is not a stored field (a computed property or a subscript is not "
                        + "in the stored value)")
            }
            keys.append(String(name))
        }
        // The struct's `CodingKeys` may store a field under another name than the property's.
        keys = CompositeCodingKeys.keys(for: keys, in: (owner as? CompositeField)?.valueType ?? owner.valueType)
        let scalar: CompositeScalar
        switch CompositeScalar.of(type) {
        case .success(let found): scalar = found
        case .failure(.uncomparable(let type, let reason)):
            return .failure("the field \(components) of type \(type) can't be compared in the store: \(reason)")
        }
        let base = (owner as? CompositeField)?.path.keys ?? []
        return .success(
            CompositeField(
                attribute: (owner as? CompositeField)?.attribute ?? owner,
                path: CompositeFieldPath(keys: base + keys, scalar: scalar),
                isOptional: optional || CompositeScalar.isOptional(type), valueType: CompositeScalar.unwrapped(type)))
    }

    /// The element count of an array inside a composite attribute, or of an array attribute, when `keyPath` is
    /// the array's `count` or `isEmpty` (`isEmpty` then says which); `nil` for any other key path.
    package static func elementCount<Root, Value>(
        _ keyPath: KeyPath<Root, Value>, of owner: any AnyPersistentProperty
    ) -> (field: CompositeField, isEmpty: Bool)? {
        guard let array = Root.self as? any CompositeArray.Type, owner.storesJSON,
            (owner.metadata as? Schema.Attribute)?.isCodable != true
        else { return nil }
        let isEmpty: Bool
        switch keyPath as AnyKeyPath {
        case array.countKeyPath: isEmpty = false
        case array.isEmptyKeyPath: isEmpty = true
        default: return nil
        }
        let base = owner as? CompositeField
        let path = CompositeFieldPath(keys: base?.path.keys ?? [], scalar: .elementCount)
        return (
            CompositeField(
                attribute: base?.attribute ?? owner, path: path, isOptional: owner.isOptional, valueType: Int.self),
            isEmpty
        )
    }

    /// `$0.address.tags.contains(x)`, `$0.tags.contains(x)`: whether the array `owner` holds (a composite field
    /// or an array attribute stored as JSON) has an element equal to `element`, of type `elementType`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` naming the model and attribute for an opaque attribute or
    ///   elements with no exact comparison in the store (structs, floating-point numbers).
    static func contains(
        _ element: Any, _ elementType: Any.Type, in owner: any AnyPersistentProperty, path: RelatedPath,
        translator: PredicateTranslator, node: Any
    ) throws -> TranslatedOperand {
        let entity = path.hops.last?.destination ?? translator.entity
        let failure = { (reason: String) in translator.unsupported(node, "\(entity.name).\(owner.name): \(reason)") }
        if (owner.metadata as? Schema.Attribute)?.isCodable == true {
            throw failure("it is stored opaquely (@Attribute(.codable)); its elements can't be searched")
        }
        guard case .success(let scalar) = CompositeScalar.of(elementType), [.text, .integer, .boolean].contains(scalar)
        else {
            throw failure(
                "elements of type \(elementType) are not searched in the store; text, integers, Booleans and "
                    + "raw-value enums of them are")
        }
        let base = owner as? CompositeField
        let field = CompositeField(
            attribute: base?.attribute ?? owner, path: CompositeFieldPath(keys: base?.path.keys ?? [], scalar: scalar),
            isOptional: true, valueType: CompositeScalar.unwrapped(elementType))
        let array = QueryExpression.column((base?.attribute ?? owner).name)
        let item = try translator.value(try translator.operand(element), like: .property(field, path: path), in: node)
        let call = QueryExpression.function(.compositeContains(field.path), [array, item])
        return .query(path.hops.isEmpty ? call : .related(path, call))
    }

    /// A field found, or why not.
    package enum FieldLookup {
        case success(CompositeField)
        case failure(String)

        /// The field, or the error `failure` makes of the reason.
        func get(_ failure: (String) -> StrataError) throws -> CompositeField {
            switch self {
            case .success(let field): return field
            case .failure(let reason): throw failure(reason)
            }
        }
    }
}

extension QueryExpression {
    /// The value of `property` in the scope of its entity: its column, or a composite field read from its
    /// attribute's column.
    package static func attribute(_ property: any AnyPersistentProperty) -> QueryExpression {
        (property as? CompositeField)?.expression ?? .column(property.name)
    }

    /// A constant compared with `property`: a composite value (a nested struct, an enum with associated values)
    /// is compared as canonical JSON, which the store makes of the bound text as it does of the stored field.
    package static func constant(
        _ stored: StoredValue, comparedWith property: any AnyPersistentProperty
    ) -> QueryExpression {
        guard let field = property as? CompositeField, field.path.scalar == .json, stored != .null else {
            return .value(stored)
        }
        return .function(.compositeJSON, [.value(stored)])
    }
}

/// An array type, whose `count` and `isEmpty` key paths a composite field's key path is compared with.
package protocol CompositeArray {
    static var countKeyPath: AnyKeyPath { get }
    static var isEmptyKeyPath: AnyKeyPath { get }
}

extension Array: CompositeArray {
    package static var countKeyPath: AnyKeyPath { \Array.count }
    package static var isEmptyKeyPath: AnyKeyPath { \Array.isEmpty }
}
