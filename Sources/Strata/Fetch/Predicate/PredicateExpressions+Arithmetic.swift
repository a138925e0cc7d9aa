import Foundation

// Integer arithmetic is checked against the Swift type's range: where Swift traps on overflow the fetch throws
// (SQLite alone would widen the result to REAL). Division and remainder by zero, where Swift traps too, give
// NULL in SQL: the comparison around them doesn't hold, except under `!=` or a negation, which then match.
// Floating-point arithmetic runs in the `strata_real_*` functions (`strata_float_*` round to `Float`), with
// Swift's IEEE results: `x / 0` is an infinity, `∞ - ∞` and any NaN operand give NaN (stored as the text 'NaN').

extension PredicateExpressions.Arithmetic: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let operation: QueryExpression.ArithmeticOperator =
            switch op {
            case .add: .add
            case .subtract: .subtract
            case .multiply: .multiply
            }
        return try translator.arithmetic(operation, lhs, rhs, of: LHS.Output.self, in: self)
    }
}

extension PredicateExpressions.IntDivision: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.arithmetic(.divide, lhs, rhs, of: LHS.Output.self, in: self)
    }
}

extension PredicateExpressions.IntRemainder: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.arithmetic(.remainder, lhs, rhs, of: LHS.Output.self, in: self)
    }
}

extension PredicateExpressions.FloatDivision: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        try translator.arithmetic(.divide, lhs, rhs, of: LHS.Output.self, in: self)
    }
}

extension PredicateExpressions.UnaryMinus: QueryTranslatable {
    package func translate(with translator: PredicateTranslator) throws -> TranslatedOperand {
        let bounds = try translator.arithmeticBounds(for: Output.self, in: self)
        let operand = try translator.value(try translator.operand(wrapped), like: nil, in: self)
        // `0 - x`: the same overflow check as subtraction (`-Int.min` traps in Swift).
        guard let bounds else {
            let single = Output.self == Float.self
            return .query(.function(.floatingArithmetic(.subtract, single: single), [.value(.real(0)), operand]))
        }
        return .query(.arithmetic(.subtract, .value(.integer(0)), operand, bounds: bounds))
    }
}

extension PredicateTranslator {
    /// Translates `lhs op rhs` on numbers of type `type`.
    func arithmetic(
        _ op: QueryExpression.ArithmeticOperator, _ lhs: Any, _ rhs: Any, of type: Any.Type, in expression: Any
    ) throws -> TranslatedOperand {
        let bounds = try arithmeticBounds(for: type, in: expression)
        let left = try operand(lhs)
        let right = try operand(rhs)
        let leftValue = try value(left, like: right, in: expression)
        let rightValue = try value(right, like: left, in: expression)
        guard let bounds else {
            return .query(.function(.floatingArithmetic(op, single: type == Float.self), [leftValue, rightValue]))
        }
        return .query(.arithmetic(op, leftValue, rightValue, bounds: bounds))
    }
}
