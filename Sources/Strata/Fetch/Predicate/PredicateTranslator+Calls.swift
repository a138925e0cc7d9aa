import Foundation

extension PredicateTranslator {
    /// A call of `function` on two operands, each constant encoded like the other operand, then `extra` arguments.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` when an operand can't be translated.
    func call(
        _ function: QueryFunction, _ lhs: Any, _ rhs: Any, extra: [QueryExpression] = [], in expression: Any
    ) throws -> TranslatedOperand {
        let left = try operand(lhs)
        let right = try operand(rhs)
        return .query(
            .function(
                function,
                [
                    try value(left, like: right, in: expression),
                    try value(right, like: left, in: expression),
                ] + extra))
    }

    /// A Character-wise text function `(text, other)`, for Strings only.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for operands that are not Strings.
    func textFunction(
        _ function: QueryFunction, _ text: Any, _ other: Any, baseType: Any.Type, in expression: Any
    ) throws -> TranslatedOperand {
        guard baseType == String.self else {
            throw unsupported(expression, "only String operands are translated; \(baseType) is not")
        }
        return try call(function, text, other, in: expression)
    }
}
