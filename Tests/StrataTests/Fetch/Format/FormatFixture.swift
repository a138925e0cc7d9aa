import Foundation

@testable import Strata
@testable import StrataTestFixtures

/// Shorthands shared by the format-predicate tests.
enum FormatFixture {
    /// The resolved tree of `format` with `arguments`; throws the parse error.
    static func parse(_ format: String, _ arguments: any Sendable...) throws -> FormatExpression {
        try FormatPredicate(format: format, argumentArray: arguments).resolvedExpression()
    }

    /// The error `format` with `arguments` keeps, or `nil` if it parsed.
    static func error(_ format: String, _ arguments: any Sendable...) -> PredicateFormatError? {
        FormatPredicate(format: format, argumentArray: arguments).error
    }

    /// A key path operand from dotted text.
    static func key(_ path: String) -> FormatOperand {
        .keyPath(path.split(separator: ".").map(String.init))
    }

    /// A constant operand.
    static func value(_ value: FormatValue) -> FormatOperand {
        .value(value)
    }

    /// A comparison node.
    static func compare(
        _ lhs: FormatOperand, _ op: ComparisonOperator, _ rhs: FormatOperand,
        _ options: ComparisonOptions = [], quantifier: Quantifier? = nil
    ) -> FormatExpression {
        .comparison(lhs, op, rhs, options: options, quantifier: quantifier)
    }

    /// `key == value` for an integer.
    static func equals(_ path: String, _ integer: Int64) -> FormatExpression {
        compare(key(path), .equal, .value(.int(integer)))
    }
}
