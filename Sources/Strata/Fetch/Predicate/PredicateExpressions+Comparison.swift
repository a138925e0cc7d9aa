import Foundation

extension PredicateExpressions.Equal: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        // No stored row refers to an unsaved model (or to a model of another entity).
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(false) }
        let other = try translator.value(right, like: left, in: self)
        return .query(
            .floatingEqual(
                PredicateTranslator.comparedLikeSwift(
                    try translator.value(left, like: right, in: self), producedBy: lhs, against: other),
                other, leftMayBeNaN: left.mayHoldNaN(as: LHS.Output.self),
                rightMayBeNaN: right.mayHoldNaN(as: RHS.Output.self)))
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(true) }
        let other = try translator.value(right, like: left, in: self)
        let compared = PredicateTranslator.comparedLikeSwift(
            try translator.value(left, like: right, in: self), producedBy: lhs, against: other)
        // NaN != NaN holds in Swift: the negation of the NaN-aware equality.
        guard left.mayHoldNaN(as: LHS.Output.self) && right.mayHoldNaN(as: RHS.Output.self) else {
            return .query(.notEqual(compared, other))
        }
        return .query(.not(.floatingEqual(compared, other, leftMayBeNaN: true, rightMayBeNaN: true)))
    }
}

extension PredicateExpressions.Comparison: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        let comparison: QueryExpression.ComparisonOperator =
            switch op {
            case .lessThan: .less
            case .lessThanOrEqual: .lessOrEqual
            case .greaterThan: .greater
            case .greaterThanOrEqual: .greaterOrEqual
            }
        let other = try translator.value(right, like: left, in: self)
        return .query(
            .orderedComparison(
                PredicateTranslator.comparedLikeSwift(
                    try translator.value(left, like: right, in: self), producedBy: lhs, against: other),
                comparison, other, leftMayBeNaN: left.mayHoldNaN(as: LHS.Output.self),
                rightMayBeNaN: right.mayHoldNaN(as: RHS.Output.self)))
    }
}

extension TranslatedOperand {
    /// Whether the operand may be NaN, which is unordered and unequal to itself: a floating-point attribute,
    /// floating-point arithmetic, or a NaN constant (bound as the text 'NaN', as stored).
    var mayHoldNaN: Bool {
        switch self {
        case .property(let property, _): property.mayHoldNaN
        case .query(.function(.floatingArithmetic, _)): true
        case .constant(let value): ConstantConformances.isNaN(value)
        case .model, .models, .query: false
        }
    }

    /// Whether the operand, of Swift type `type`, may be NaN: as `mayHoldNaN`, and any computed floating-point
    /// value (`$0.x ?? 0`, `c ? $0.x : 0`), which may carry a NaN from a column or constant inside it.
    func mayHoldNaN(as type: Any.Type) -> Bool {
        if case .query = self, [Double.self, Float.self, Double?.self, Float?.self].contains(where: { $0 == type }) {
            return true
        }
        return mayHoldNaN
    }
}
