import Foundation

extension AggregatePlan {
    /// The condition on the grouped rows that keeps the groups `node` keeps, over result columns it adds.
    ///
    /// Each comparison reads one column holding the aggregate's value (an integer sum or average as one exact
    /// key); a floating-point aggregate may be NaN and is compared as Swift compares it, an average, minimum or
    /// maximum that is null matches no comparison (false, so `!` keeps it), and a floating-point sum over no values is zero.
    /// - Throws: `StrataError.invalidAggregate` for a comparison of text or of a value the aggregate's property
    ///   can't store.
    mutating func groupCondition<T>(_ node: AggregatePredicate<T>.Node) throws -> QueryExpression {
        switch node {
        case .and(let left, let right):
            return .and([try groupCondition(left), try groupCondition(right)])
        case .or(let left, let right):
            return .or([try groupCondition(left), try groupCondition(right)])
        case .not(let operand):
            return .not(try groupCondition(operand))
        case .comparison(let term, let relation, let value):
            return try comparison(term, relation, value)
        }
    }

    private mutating func comparison(
        _ term: AggregateTerm, _ relation: AggregatePredicate<some PersistentModel>.Relation, _ value: Any
    ) throws -> QueryExpression {
        let constant = try storedConstant(value, for: term)
        var compared = QueryExpression.column(StoreAggregate.resultColumn(try sortColumn(for: term)))
        let function = term.function
        if function == .floatingSum { compared = .function(.coalesce, [compared, .value(.real(0))]) }
        let leftMayBeNaN = [.floatingSum, .floatingAverage, .floatingMinimum, .floatingMaximum].contains(function)
        let rightMayBeNaN = constant == QueryExpression.storedNaN
        let condition: QueryExpression
        switch relation {
        case .equal:
            condition = .floatingEqual(compared, constant, leftMayBeNaN: leftMayBeNaN, rightMayBeNaN: rightMayBeNaN)
        case .notEqual:
            condition = .not(
                .floatingEqual(compared, constant, leftMayBeNaN: leftMayBeNaN, rightMayBeNaN: rightMayBeNaN))
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let op: QueryExpression.ComparisonOperator =
                switch relation {
                case .less: .less
                case .lessOrEqual: .lessOrEqual
                case .greater: .greater
                default: .greaterOrEqual
                }
            condition = .orderedComparison(
                compared, op, constant, leftMayBeNaN: leftMayBeNaN, rightMayBeNaN: rightMayBeNaN)
        }
        let mayBeNull = [
            .integerAverage, .floatingAverage, .minimum, .maximum, .floatingMinimum, .floatingMaximum,
        ].contains(function)
        // A comparison with null is false, not unknown, so its negation keeps the group (the two-valued rule of
        // Strata's predicates).
        return mayBeNull ? .and([.not(.isNull(compared)), condition]) : condition
    }

    /// The value an aggregate is compared with, as the store compares it with the aggregate's column.
    private func storedConstant(_ value: Any, for term: AggregateTerm) throws -> QueryExpression {
        switch term.function {
        case .count, .countValues, .countDistinct, .integerSum:
            if let integer = value as? any BinaryInteger, let stored = Int64(exactly: integer) {
                return .value(.integer(stored))
            }
        case .integerAverage, .floatingSum, .floatingAverage:
            if let floating = value as? any BinaryFloatingPoint {
                let double = Double(floating)
                return double.isNaN ? QueryExpression.storedNaN : .value(.real(double))
            }
        case .minimum, .maximum, .floatingMinimum, .floatingMaximum:
            guard let keyPath = term.keyPath, let property = try? Self.resolve(keyPath, in: entity).1 else { break }
            guard case .attribute(let storage) = property.kind, storage == .integer || storage == .real else {
                throw StrataError.invalidAggregate(
                    entity: entity.name, property: Self.name(of: keyPath, in: entity),
                    reason: "havingPredicate compares numbers and dates; this minimum or maximum is stored as "
                        + "\(property.kind)")
            }
            if let double = value as? Double, double.isNaN { return QueryExpression.storedNaN }
            if let float = value as? Float, float.isNaN { return QueryExpression.storedNaN }
            if let stored = try property.encodeAny(value) { return .value(stored) }
        }
        throw StrataError.invalidAggregate(
            entity: entity.name, property: term.keyPath.map { Self.name(of: $0, in: entity) } ?? "count",
            reason: "havingPredicate can't compare it with \(value)")
    }
}
