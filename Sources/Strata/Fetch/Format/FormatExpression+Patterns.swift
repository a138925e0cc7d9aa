import Foundation

extension FormatExpression {
    /// The first constant `MATCHES` pattern (a literal, a bound argument or a substituted variable) that
    /// is not a valid ICU regular expression, in reading order, subqueries included; `nil` when all are.
    /// Checking when the predicate is built means a bad pattern never fails a query halfway.
    var firstInvalidPattern: String? {
        switch self {
        case .constant:
            return nil
        case .not(let operand):
            return operand.firstInvalidPattern
        case .and(let members), .or(let members):
            return members.lazy.compactMap(\.firstInvalidPattern).first
        case .comparison(let lhs, let op, let rhs, let options, _):
            if op == .matches, case .value(.string(let pattern)) = rhs, !Self.isValidPattern(pattern, options: options)
            {
                return pattern
            }
            return lhs.firstInvalidPattern ?? rhs.firstInvalidPattern
        case .between(let value, let lower, let upper):
            return value.firstInvalidPattern ?? lower.firstInvalidPattern ?? upper.firstInvalidPattern
        }
    }

    /// Whether `pattern` compiles as `MATCHES` under `options` would compile it.
    static func isValidPattern(_ pattern: String, options: ComparisonOptions) -> Bool {
        var flags: StrataTextOptions = []
        if options.contains(.caseInsensitive) { flags.insert(.caseInsensitive) }
        if options.contains(.diacriticInsensitive) { flags.insert(.diacriticInsensitive) }
        do throws(StrataFunctionError) {
            _ = try StrataRegexCache.compile(pattern, options: flags)
            return true
        } catch {
            return false
        }
    }
}

extension FormatOperand {
    /// The first invalid constant `MATCHES` pattern inside a subquery of this operand.
    fileprivate var firstInvalidPattern: String? {
        switch self {
        case .keyPath, .evaluatedObject, .value, .variable, .variableKeyPath:
            return nil
        case .aggregate(let members), .function(_, let members):
            return members.lazy.compactMap(\.firstInvalidPattern).first
        case .subquery(let collection, _, let predicate):
            return collection.firstInvalidPattern ?? predicate.firstInvalidPattern
        case .collectionOperation(let base, _, _):
            return base.firstInvalidPattern
        case .arithmetic(let lhs, _, let rhs):
            return lhs.firstInvalidPattern ?? rhs.firstInvalidPattern
        }
    }
}
