import Foundation

extension PredicateExpressions.Equal: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        // No stored row refers to an unsaved model (or to a model of another entity).
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(false) }
        return .query(.equal(
            try translator.value(left, like: right, in: self),
            try translator.value(right, like: left, in: self)))
    }
}

extension PredicateExpressions.NotEqual: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let left = try translator.operand(lhs)
        let right = try translator.operand(rhs)
        if translator.comparesWithAbsentIdentifier(left, right) { return .constant(true) }
        return .query(.notEqual(
            try translator.value(left, like: right, in: self),
            try translator.value(right, like: left, in: self)))
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
        return .query(.compare(
            try translator.value(left, like: right, in: self), comparison,
            try translator.value(right, like: left, in: self)))
    }
}
