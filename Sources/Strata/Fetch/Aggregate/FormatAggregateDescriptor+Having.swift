import Foundation

extension FormatAggregateDescriptor {
    /// The having predicate's tree as the engine's: each comparison of a result expression (`@sum.cents`,
    /// `@count`) with a constant, combined with `AND`, `OR` and `NOT`.
    /// - Throws: `StrataError.unsupportedPredicate` for any other shape; `StrataError.invalidAggregate` for an
    ///   expression that can't be totalled.
    static func havingNode(
        _ expression: FormatExpression, entity: Schema.Entity
    ) throws -> AggregatePredicate<T>.Node {
        switch expression {
        case .and(let members):
            return try members.dropFirst().reduce(try havingNode(members[0], entity: entity)) {
                .and($0, try havingNode($1, entity: entity))
            }
        case .or(let members):
            return try members.dropFirst().reduce(try havingNode(members[0], entity: entity)) {
                .or($0, try havingNode($1, entity: entity))
            }
        case .not(let operand):
            return .not(try havingNode(operand, entity: entity))
        case .comparison(let left, let op, let right, let options, nil) where options.isEmpty:
            if case .collectionOperation(.evaluatedObject, let collection, let path) = left,
                case .value(let value) = right,
                let relation = relation(op)
            {
                return try comparison(collection, path, relation, value, entity: entity)
            }
            if case .collectionOperation(.evaluatedObject, let collection, let path) = right,
                case .value(let value) = left,
                let relation = relation(op)
            {
                return try comparison(collection, path, flipped(relation), value, entity: entity)
            }
        default:
            break
        }
        throw StrataError.unsupportedPredicate(
            expression: expression.predicateFormat,
            reason: "a havingPredicate compares a result expression such as @sum.amount or @count with a value "
                + "(==, !=, <, <=, >, >=), combined with AND, OR and NOT")
    }

    private static func comparison(
        _ collection: CollectionOperator, _ path: [String], _ relation: AggregatePredicate<T>.Relation,
        _ value: FormatValue, entity: Schema.Entity
    ) throws -> AggregatePredicate<T>.Node {
        let text = path.isEmpty ? collection.rawValue : collection.rawValue + "." + path.joined(separator: ".")
        guard let (term, _) = try term(text, entity: entity) else {
            throw StrataError.invalidAggregate(entity: entity.name, property: text, reason: "not a result expression")
        }
        return .comparison(term, relation, try constant(value, for: term, entity: entity))
    }

    /// `value` as the Swift type the aggregate gives, which the engine compares it as.
    private static func constant(_ value: FormatValue, for term: AggregateTerm, entity: Schema.Entity) throws -> Any {
        var candidates: [Any] = []
        switch value {
        case .int(let integer): candidates = [Int(integer), Double(integer), Int32(truncatingIfNeeded: integer)]
        case .double(let double): candidates = [double, Float(double)] + (Int(exactly: double).map { [$0] } ?? [])
        case .date(let date): candidates = [date]
        case .bool(let bool): candidates = [bool ? 1 : 0]
        default: candidates = []
        }
        switch term.function {
        case .count, .countValues, .countDistinct, .integerSum:
            if let integer = candidates.first(where: { $0 is Int }) { return integer }
        case .integerAverage, .floatingSum, .floatingAverage:
            if let double = candidates.first(where: { $0 is Double }) { return double }
        case .minimum, .maximum, .floatingMinimum, .floatingMaximum:
            if let operand = term.keyPath, let property = try? AggregatePlan.resolve(operand, in: entity).1,
                let match = candidates.first(where: { candidate in
                    type(of: candidate) == property.valueType && ((try? property.encodeAny(candidate)) ?? nil) != nil
                })
            {
                return match
            }
        }
        throw StrataError.invalidAggregate(
            entity: entity.name, property: term.keyPath.map { AggregatePlan.name(of: $0, in: entity) } ?? "@count",
            reason: "havingPredicate can't compare it with \(value)")
    }

    private static func relation(_ op: ComparisonOperator) -> AggregatePredicate<T>.Relation? {
        switch op {
        case .equal: .equal
        case .notEqual: .notEqual
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual: .greaterOrEqual
        default: nil
        }
    }

    /// The relation with its sides swapped: `5 < @count` is `@count > 5`.
    private static func flipped(_ relation: AggregatePredicate<T>.Relation) -> AggregatePredicate<T>.Relation {
        switch relation {
        case .less: .greater
        case .lessOrEqual: .greaterOrEqual
        case .greater: .less
        case .greaterOrEqual: .lessOrEqual
        case .equal, .notEqual: relation
        }
    }
}
