extension QueryExpression {
    /// How a floating-point column keeps NaN: the text `'NaN'` (SQLite would turn a bound NaN into `NULL`).
    package static let storedNaN = QueryExpression.value(.text("NaN"))

    /// `left op right` with Swift's IEEE semantics where a side is a floating-point column that may hold NaN:
    /// NaN is unordered, so every ordering comparison with it is false.
    ///
    /// SQLite sorts the text `'NaN'` above every number, so `<` and `<=` with a NaN on the left (or `>`,
    /// `>=` with it on the right) already fail; the other direction adds `side <= +∞`, a range bound that
    /// keeps an index on the column usable.
    package static func orderedComparison(
        _ left: QueryExpression, _ op: ComparisonOperator, _ right: QueryExpression, leftMayBeNaN: Bool,
        rightMayBeNaN: Bool
    ) -> QueryExpression {
        var conditions = [QueryExpression.compare(left, op, right)]
        let greater = op == .greater || op == .greaterOrEqual
        if leftMayBeNaN && greater { conditions.append(.compare(left, .lessOrEqual, .value(.real(.infinity)))) }
        if rightMayBeNaN && !greater { conditions.append(.compare(right, .lessOrEqual, .value(.real(.infinity)))) }
        return conditions.count == 1 ? conditions[0] : .and(conditions)
    }

    /// Null-safe equality with Swift's IEEE semantics: NaN equals nothing, itself included. Only two sides
    /// that may both be NaN need the guard (`'NaN'` text never equals a number).
    package static func floatingEqual(
        _ left: QueryExpression, _ right: QueryExpression, leftMayBeNaN: Bool, rightMayBeNaN: Bool
    ) -> QueryExpression {
        guard leftMayBeNaN && rightMayBeNaN else { return .equal(left, right) }
        return .and([.equal(left, right), .notEqual(left, storedNaN)])
    }
}

extension QueryExpression {
    /// Whether a computed value may be NaN: floating-point arithmetic, an aggregate of a floating-point attribute,
    /// or a `coalesce` or `case` that may pass one on.
    package var mayBeNaN: Bool {
        switch self {
        case .function(.floatingArithmetic, _): true
        case .function(.coalesce, let arguments): arguments.contains { $0.mayBeNaN }
        case .case(_, let then, let otherwise): then.mayBeNaN || otherwise.mayBeNaN
        case .relatedAggregate(let aggregate, _, _): aggregate.mayBeNaN
        default: false
        }
    }
}

extension AnyPersistentProperty {
    /// Whether the property is a floating-point attribute (`Double`, `Float`), whose column may hold NaN.
    package var mayHoldNaN: Bool {
        guard case .attribute(.real) = kind else { return false }
        return valueType != Date.self
    }
}
