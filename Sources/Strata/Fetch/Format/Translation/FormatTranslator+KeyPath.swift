import Foundation

extension FormatTranslator {
    /// Lowers an operand: a key path, a constant, arithmetic, a function or an aggregate.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` naming the entity and key for an unknown key or an
    ///   operand the store can't compute.
    package func operand(_ operand: FormatOperand, in expression: FormatExpression) throws -> LoweredOperand {
        switch operand {
        case .keyPath(let components):
            if subqueryVariable != nil {
                throw unsupported(
                    expression,
                    "inside a SUBQUERY, reach the member's properties through its variable ($x.\(components.joined(separator: ".")))"
                )
            }
            return try keyPath(components, in: expression)
        case .variableKeyPath(let name, let components) where name == subqueryVariable:
            return try keyPath(components, in: expression)
        case .value(let value):
            return .constant(value)
        case .arithmetic(let lhs, let op, let rhs):
            return try arithmetic(lhs, op, rhs, in: expression)
        case .function(let name, let arguments):
            return try function(name, arguments, in: expression)
        case .aggregate:
            throw unsupported(expression, "a {…} list with key paths in it can only follow IN or BETWEEN")
        case .evaluatedObject:
            throw unsupported(
                expression,
                "SELF (a whole \(entity.name)) can't be compared in the store; compare one of its properties")
        case .variable(let name), .variableKeyPath(let name, _):
            throw unsupported(expression, "$\(name) is only usable inside a SUBQUERY over a relationship")
        case .subquery, .collectionOperation:
            return try relationshipOperand(operand, in: expression)
        }
    }

    /// A key path on the fetched entity: one stored attribute or to-one relationship, or a path
    /// through relationships.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a component that is not an identifier or not
    ///   a persistent property of the entity.
    func keyPath(_ components: [String], in expression: FormatExpression) throws -> LoweredOperand {
        for component in components where !Self.isIdentifier(component) {
            throw unsupported(expression, "'\(component)' is not a property name (names are letters, digits and _)")
        }
        guard let first = components.first else {
            throw unsupported(expression, "an empty key path names no property")
        }
        let property = try property(named: first, of: entity, in: expression)
        if components.count > 1 {
            return try relationshipKeyPath(components, in: expression)
        }
        if property.relationshipDestination?.isToMany == true {
            throw unsupported(
                expression,
                "\(entity.name).\(first) is a to-many relationship; compare it with ANY, ALL, NONE or @count")
        }
        return .property(property, .column(property.name), owner: entity)
    }

    /// The persistent property `name` of `entity`.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` naming the entity and key when there is none.
    func property(
        named name: String, of entity: Schema.Entity, in expression: FormatExpression
    ) throws -> any AnyPersistentProperty {
        guard let property = entity.property(named: name) else {
            let known = entity.persistentProperties.map(\.name).joined(separator: ", ")
            throw unsupported(expression, "\(entity.name) has no persistent property '\(name)' (it has: \(known))")
        }
        return property
    }

    /// Whether `name` is an identifier: a letter or `_`, then letters, digits and `_`.
    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !name.isEmpty,
            first == "_" || CharacterSet.letters.contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }
}
