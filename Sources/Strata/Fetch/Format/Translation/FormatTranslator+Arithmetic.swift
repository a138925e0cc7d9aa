import Foundation

extension FormatTranslator {
    /// `lhs + rhs`, `-`, `*`, `/`, `**` on numbers (dates count as seconds since 2001-01-01).
    ///
    /// `/` always divides as floating point, as `NSExpression` arithmetic on `NSNumber`s does, so
    /// `pages / 2` is `60.5` for 121 pages, not `60`. With a floating-point operand (a `Double`/`Float`
    /// attribute, a fractional constant, or a value computed from one) `+`, `-`, `*` and `/` follow IEEE as
    /// Swift does: `x / 0` is an infinity, `∞ - ∞` is NaN, and NaN carries on.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for an operand that is not a number.
    func arithmetic(
        _ lhs: FormatOperand, _ op: ArithmeticOperator, _ rhs: FormatOperand, in expression: FormatExpression
    ) throws -> LoweredOperand {
        let (leftOperand, rightOperand) = (try operand(lhs, in: expression), try operand(rhs, in: expression))
        let left = try number(leftOperand, in: expression)
        let right = try number(rightOperand, in: expression)
        if Self.isFloatingPoint(leftOperand) || Self.isFloatingPoint(rightOperand),
            let floating = Self.floatingOperator(op)
        {
            return .computed(.function(.floatingArithmetic(floating, single: false), [left, right]))
        }
        switch op {
        case .add: return .computed(.arithmetic(.add, left, right, bounds: nil))
        case .subtract: return .computed(.arithmetic(.subtract, left, right, bounds: nil))
        case .multiply: return .computed(.arithmetic(.multiply, left, right, bounds: nil))
        case .divide:
            let real = QueryExpression.arithmetic(.multiply, left, .value(.real(1)), bounds: nil)
            return .computed(.arithmetic(.divide, real, right, bounds: nil))
        case .power: return .computed(.function(.power, [left, right]))
        }
    }

    /// Whether an arithmetic operand is a floating-point number: such an attribute, a fractional constant, or a
    /// value that may be NaN.
    private static func isFloatingPoint(_ operand: LoweredOperand) -> Bool {
        if case .constant(.double) = operand { return true }
        return operand.mayHoldNaN
    }

    /// The IEEE arithmetic operator for a format operator; `nil` for `**`.
    private static func floatingOperator(_ op: ArithmeticOperator) -> QueryExpression.ArithmeticOperator? {
        switch op {
        case .add: .add
        case .subtract: .subtract
        case .multiply: .multiply
        case .divide: .divide
        case .power: nil
        }
    }

    /// A call of one of the format language's functions.
    ///
    /// `now()` is the time the predicate is translated; `lowercase(text)` folds case the way `[c]`
    /// does; `abs(number)`. The others are not translated.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for other functions or mistyped arguments.
    func function(
        _ name: String, _ arguments: [FormatOperand], in expression: FormatExpression
    ) throws -> LoweredOperand {
        let lowered = try arguments.map { try operand($0, in: expression) }
        switch (name, lowered.count) {
        case ("now", 0):
            return .constant(.date(Date()))
        case ("lowercase", 1):
            return .computed(try fold(lowered[0], options: .caseInsensitive, in: expression))
        case ("abs", 1):
            let value = try number(lowered[0], in: expression)
            let negated = QueryExpression.arithmetic(.subtract, .value(.integer(0)), value, bounds: nil)
            return .computed(.case(when: .compare(value, .less, .value(.integer(0))), then: negated, else: value))
        default:
            throw unsupported(
                expression,
                "the function \(name)() with \(lowered.count) argument(s) is not translated; "
                    + "now(), lowercase(text) and abs(number) are")
        }
    }

    /// A numeric operand: an integer, floating-point or date attribute, a number or date constant, or
    /// a computed value.
    ///
    /// - Throws: `StrataError.unsupportedPredicate` for text, data, Booleans and other non-numbers.
    private func number(_ operand: LoweredOperand, in expression: FormatExpression) throws -> QueryExpression {
        switch operand {
        case .property(let property, let query, _):
            switch property.kind {
            case .attribute(.integer) where property.valueType != Bool.self, .attribute(.real):
                return query
            default:
                throw unsupported(
                    expression,
                    "arithmetic needs numbers; \(operand.propertyName) holds "
                        + "\(Self.typeDescription(of: property)) values")
            }
        case .constant(let value):
            switch value {
            case .int, .double, .date, .null:
                return try self.value(operand, like: nil, in: expression)
            default:
                throw unsupported(expression, "arithmetic needs numbers, not \(Self.kindDescription(of: value))")
            }
        case .computed(let query):
            return query
        }
    }
}
