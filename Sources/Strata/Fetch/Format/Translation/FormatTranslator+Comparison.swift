import Foundation

extension FormatTranslator {
    /// `lhs <op>[options] rhs` without a quantifier; a left key path through a to-many relationship
    /// (`tags.name == "x"`) means `ANY`, as in Core Data.
    ///
    /// `==`/`!=` are null-safe (`x == nil` is `IS NULL`); a floating-point attribute's NaN is unordered and
    /// unequal to everything, itself included, as in Swift; `[c]`/`[d]` fold both sides with
    /// `strata_fold`; the string operators call Strata's Unicode-aware SQL functions.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for an unknown key, a mistyped value, or a
    ///   string operator or modifier applied to something that is not text.
    func comparison(
        _ lhs: FormatOperand, _ op: ComparisonOperator, _ rhs: FormatOperand,
        options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        if let components = memberKeyPath(lhs), (try? splitRelationshipPath(components, in: expression))?.toMany != nil
        {
            return try quantified(.any, lhs, op, rhs, options: options, in: expression)
        }
        let left = try operand(lhs, in: expression)
        if op == .in {
            return try membership(left, in: rhs, options: options, in: expression)
        }
        if op == .contains, case .constant(.array) = left {
            return try membership(try operand(rhs, in: expression), in: lhs, options: options, in: expression)
        }
        let right = try operand(rhs, in: expression)
        switch op {
        case .equal, .notEqual:
            let equality = try equality(left, right, options: options, in: expression)
            return op == .equal ? equality : Self.negation(equality)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            let (leftValue, rightValue) = try folded(left, right, options: options, in: expression)
            return .orderedComparison(
                leftValue, Self.ordering(op), rightValue,
                leftMayBeNaN: left.mayHoldNaN, rightMayBeNaN: right.mayHoldNaN)
        case .beginsWith, .endsWith, .contains, .like, .matches:
            let function = Self.textFunction(op)
            return .function(
                function,
                [
                    try text(left, in: expression), try text(right, in: expression), Self.flags(options),
                ])
        case .in:
            return try membership(left, in: rhs, options: options, in: expression)
        }
    }

    /// Null-safe equality, folded under `[c]`/`[d]`; a comparison with `nil` is `IS NULL`.
    private func equality(
        _ left: LoweredOperand, _ right: LoweredOperand, options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        if case .constant(.null) = right { return .isNull(try value(left, like: nil, in: expression)) }
        if case .constant(.null) = left { return .isNull(try value(right, like: nil, in: expression)) }
        let (leftValue, rightValue) = try folded(left, right, options: options, in: expression)
        return .floatingEqual(leftValue, rightValue, leftMayBeNaN: left.mayHoldNaN, rightMayBeNaN: right.mayHoldNaN)
    }

    /// Both sides encoded like each other and, under `[c]`/`[d]`, folded.
    func folded(
        _ left: LoweredOperand, _ right: LoweredOperand, options: ComparisonOptions, in expression: FormatExpression
    ) throws -> (QueryExpression, QueryExpression) {
        guard !options.isEmpty else {
            return (try value(left, like: right, in: expression), try value(right, like: left, in: expression))
        }
        return (try fold(left, options: options, in: expression), try fold(right, options: options, in: expression))
    }

    /// A text operand folded under `options`.
    func fold(
        _ operand: LoweredOperand, options: ComparisonOptions, in expression: FormatExpression
    ) throws -> QueryExpression {
        .function(.fold, [try text(operand, in: expression), Self.flags(options)])
    }

    /// A text operand: a text attribute, a string constant (bound as text), or a computed value.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for a non-text attribute or constant.
    func text(_ operand: LoweredOperand, in expression: FormatExpression) throws -> QueryExpression {
        switch operand {
        case .property(let property, let query, _):
            guard case .attribute(.text) = property.kind else {
                throw unsupported(
                    expression,
                    "\(operand.propertyName) holds \(Self.typeDescription(of: property)) values, "
                        + "not text; string operators and [c]/[d] apply to text only")
            }
            return query
        case .constant(.string(let text)):
            return .value(.text(text))
        case .constant(.null):
            return .value(.null)
        case .constant(let value):
            throw unsupported(
                expression, "string operators and [c]/[d] need text, not \(Self.kindDescription(of: value))")
        case .computed(let query):
            return query
        }
    }

    /// The text-flags argument of Strata's string functions for `[c]`/`[d]`.
    static func flags(_ options: ComparisonOptions) -> QueryExpression {
        var flags: StrataTextOptions = []
        if options.contains(.caseInsensitive) { flags.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { flags.insert(.diacriticInsensitive) }
        return .value(.integer(flags.rawValue))
    }

    private static func ordering(_ op: ComparisonOperator) -> QueryExpression.ComparisonOperator {
        switch op {
        case .less: .less
        case .lessOrEqual: .lessOrEqual
        case .greater: .greater
        default: .greaterOrEqual
        }
    }

    private static func textFunction(_ op: ComparisonOperator) -> QueryFunction {
        switch op {
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .like: .like
        case .matches: .matches
        default: .contains
        }
    }
}
