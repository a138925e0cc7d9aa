import Foundation

/// A key path split at its first to-many relationship: the to-one hops before it, the to-many hop, and
/// the key path inside each related model.
struct RelationshipKeyPath {
    var hops: [RelationshipHop]
    var toMany: RelationshipHop?
    var rest: [String]
    /// The entity the path has reached: the to-many's destination, or the last to-one's.
    var destination: Schema.Entity
}

extension FormatTranslator {
    /// Splits `components` into to-one hops, the first to-many hop, and what follows it.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for unknown keys or an attribute in the middle of the path.
    func splitRelationshipPath(_ components: [String], in expression: FormatExpression) throws -> RelationshipKeyPath {
        var current = entity
        var hops: [RelationshipHop] = []
        for (offset, component) in components.enumerated() {
            guard Self.isIdentifier(component) else {
                throw unsupported(expression, "'\(component)' is not a property name (names are letters, digits and _)")
            }
            let property = try FormatTranslator(entity: current).property(named: component, of: current, in: expression)
            guard property.relationshipDestination != nil else {
                guard offset == components.count - 1 else {
                    throw unsupported(
                        expression,
                        "\(current.name).\(component) is not a relationship; a key path can only continue after one")
                }
                return RelationshipKeyPath(hops: hops, toMany: nil, rest: [component], destination: current)
            }
            guard let hop = RelationshipHop(owner: current, relationshipIndex: property.index) else {
                throw unsupported(expression, "\(current.name).\(component) is not a resolved relationship")
            }
            if hop.relationship.isToMany {
                return RelationshipKeyPath(
                    hops: hops, toMany: hop, rest: Array(components[(offset + 1)...]), destination: hop.destination)
            }
            if offset == components.count - 1 {
                return RelationshipKeyPath(hops: hops, toMany: nil, rest: [component], destination: current)
            }
            hops.append(hop)
            current = hop.destination
        }
        return RelationshipKeyPath(hops: hops, toMany: nil, rest: [], destination: current)
    }

    /// A key path through to-one relationships, such as `author.name`: the value at its end, null when any
    /// relationship on the way is nil.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for unknown keys or a to-many relationship on the way
    ///   (compare those with ANY, ALL, NONE or an @ aggregate).
    func relationshipKeyPath(_ components: [String], in expression: FormatExpression) throws -> LoweredOperand {
        let path = try splitRelationshipPath(components, in: expression)
        guard path.toMany == nil, let last = path.rest.last, !path.hops.isEmpty else {
            throw unsupported(
                expression,
                "\(components.joined(separator: ".")) goes through a to-many relationship; "
                    + "use ANY, ALL, NONE, @count or another @ aggregate")
        }
        let property = try property(named: last, of: path.destination, in: expression)
        return .property(
            property, .related(RelatedPath(hops: path.hops), .column(property.name)), owner: path.destination)
    }

    /// `relationship.@count`, `relationship.@sum.key` (and `@avg`, `@min`, `@max`), and
    /// `SUBQUERY(relationship, $x, predicate).@count`.
    ///
    /// `@sum` over no related models is 0, as in Core Data; `@avg`, `@min` and `@max` are nil.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a collection that is not a to-many relationship, a
    ///   bare `SUBQUERY` without `.@count`, an aggregate key that is not an attribute, `@sum`/`@avg` of a
    ///   non-number (text, Booleans, dates, data) or `@min`/`@max` of data or UUIDs.
    func relationshipOperand(_ operand: FormatOperand, in expression: FormatExpression) throws -> LoweredOperand {
        guard case .collectionOperation(let base, let op, let keys) = operand else {
            throw unsupported(expression, "a SUBQUERY can only be counted: SUBQUERY(…).@count")
        }
        let query = try relatedQuery(base, in: expression)
        if op == .count {
            guard keys.isEmpty else { throw unsupported(expression, "@count takes no key after it") }
            return .computed(.relatedCount(query))
        }
        guard keys.count == 1, let key = keys.first, let destination = query.path.hops.last?.destination else {
            throw unsupported(
                expression, "\(op.rawValue) needs one attribute of the related models after it, such as @sum.pages")
        }
        let property = try FormatTranslator(entity: destination).property(named: key, of: destination, in: expression)
        guard case .attribute(let storage) = property.kind, Self.isIdentifier(key) else {
            throw unsupported(expression, "\(destination.name).\(key) is not an attribute")
        }
        if let need = Self.aggregateRequirement(op, storage: storage, valueType: property.valueType) {
            throw unsupported(
                expression,
                "\(op.rawValue).\(key) needs \(need), but \(destination.name).\(key) holds "
                    + "\(Self.typeDescription(of: property)) values")
        }
        // Floating-point attributes may hold NaN: their sums follow IEEE, and every aggregate of them is marked so
        // comparisons treat a NaN result as unordered.
        let floating = property.mayHoldNaN
        let aggregate: QueryAggregate
        switch op {
        case .sum: aggregate = floating ? .floatingSum : storage == .integer ? .integerSum : .sum
        case .average: aggregate = floating ? .floatingAverage : .average
        case .minimum: aggregate = floating ? .floatingMinimum : .minimum
        default: aggregate = floating ? .floatingMaximum : .maximum
        }
        let value = QueryExpression.relatedAggregate(aggregate, query, .column(property.name))
        let isSum = [.sum, .integerSum, .floatingSum].contains(aggregate)
        return .computed(isSum ? .function(.coalesce, [value, .value(.integer(0))]) : value)
    }

    /// What `op` needs that an attribute stored as `storage` (holding `valueType`) lacks; `nil` when it fits.
    /// `@sum` and `@avg` take numbers (not Booleans or dates); `@min` and `@max` take anything ordered, which
    /// excludes data and UUIDs.
    private static func aggregateRequirement(
        _ op: CollectionOperator, storage: StorageClass, valueType: Any.Type
    ) -> String? {
        switch op {
        case .sum, .average:
            switch storage {
            case .integer where valueType != Bool.self, .unsignedInteger, .decimal: return nil
            case .real where valueType != Date.self: return nil
            default: return "numbers"
            }
        case .minimum, .maximum:
            return storage == .blob ? "ordered values (numbers, text or dates)" : nil
        case .count:
            return nil
        }
    }

    /// The related rows an aggregate runs over: a to-many key path, or a `SUBQUERY` narrowing one.
    private func relatedQuery(_ base: FormatOperand, in expression: FormatExpression) throws -> RelatedQuery {
        switch base {
        case .keyPath, .variableKeyPath:
            guard let components = memberKeyPath(base) else {
                throw unsupported(
                    expression, "@ aggregates and SUBQUERY apply to to-many relationships of the member in scope")
            }
            let path = try splitRelationshipPath(components, in: expression)
            guard let toMany = path.toMany, path.rest.isEmpty else {
                throw unsupported(expression, "\(components.joined(separator: ".")) is not a to-many relationship")
            }
            return RelatedQuery(path: RelatedPath(hops: path.hops + [toMany]))
        case .subquery(let collection, let variable, let predicate):
            var query = try relatedQuery(collection, in: expression)
            guard let destination = query.path.hops.last?.destination else {
                throw unsupported(expression, "a SUBQUERY needs a to-many relationship")
            }
            query.condition = try FormatTranslator(entity: destination, subqueryVariable: variable).condition(predicate)
            return query
        default:
            throw unsupported(expression, "@ aggregates and SUBQUERY apply to to-many relationships only")
        }
    }
}

extension FormatOperand {
    /// Whether the operand reads a key path (rather than being built from constants only).
    var readsKeyPath: Bool {
        switch self {
        case .value: false
        case .aggregate(let members), .function(_, let members): members.contains { $0.readsKeyPath }
        case .arithmetic(let lhs, _, let rhs): lhs.readsKeyPath || rhs.readsKeyPath
        default: true
        }
    }
}
