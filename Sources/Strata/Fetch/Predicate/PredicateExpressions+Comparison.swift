import Foundation

extension PredicateExpressions.Equal: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        // No stored row refers to an unsaved model (or to a model of another entity).
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(false) }
        let other = try translator.value(right, like: left, in: self)
        return .query(.equal(
            PredicateTranslator.comparedLikeSwift(try translator.value(left, like: right, in: self), producedBy: lhs, against: other),
            other))
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(true) }
        let other = try translator.value(right, like: left, in: self)
        return .query(.notEqual(
            PredicateTranslator.comparedLikeSwift(try translator.value(left, like: right, in: self), producedBy: lhs, against: other),
            other))
    }
}

extension PredicateExpressions.Comparison: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        let comparison: QueryExpression.ComparisonOperator = switch op {
        case .lessThan: .less
        case .lessThanOrEqual: .lessOrEqual
        case .greaterThan: .greater
        case .greaterThanOrEqual: .greaterOrEqual
        }
        let other = try translator.value(right, like: left, in: self)
        return .query(.compare(
            PredicateTranslator.comparedLikeSwift(try translator.value(left, like: right, in: self), producedBy: lhs, against: other),
            comparison, other))
    }
}
