import Foundation

/// The boolean-valued tree a format string parses into: what a predicate *asks*, with no SQL in it.
///
/// The SQL translator walks this tree; the printer (``FormatPredicate/predicateFormat``) turns it
/// back into canonical text that parses to the same tree.
///
/// ```swift
/// // "a == 1 OR b == 2 AND c == 3"
/// .or([
///     .comparison(.keyPath(["a"]), .equal, .value(.int(1)), options: [], quantifier: nil),
///     .and([
///         .comparison(.keyPath(["b"]), .equal, .value(.int(2)), options: [], quantifier: nil),
///         .comparison(.keyPath(["c"]), .equal, .value(.int(3)), options: [], quantifier: nil),
///     ]),
/// ])
/// ```
///
/// Shape guarantees the parser keeps:
/// - `and` / `or` have at least two members; a chain `a AND b AND c` is one flat `and`, while
///   explicit parentheses `(a AND b) AND c` keep their nesting.
/// - Nesting never exceeds ``FormatParser/maximumDepth`` levels.
package indirect enum FormatExpression: Sendable, Hashable {
    /// `TRUEPREDICATE` / `FALSEPREDICATE`.
    case constant(Bool)
    /// `NOT p` / `!p`.
    case not(FormatExpression)
    /// `p AND q AND …` / `&&`.
    case and([FormatExpression])
    /// `p OR q OR …` / `||`.
    case or([FormatExpression])
    /// `lhs <operator>[options] rhs`, optionally prefixed by `ANY` / `SOME` / `ALL` / `NONE`.
    case comparison(
        FormatOperand, ComparisonOperator, FormatOperand,
        options: ComparisonOptions, quantifier: Quantifier?
    )
    /// `value BETWEEN {lower, upper}` — inclusive at both ends.
    case between(FormatOperand, lower: FormatOperand, upper: FormatOperand)
}

/// The operator of a ``FormatExpression/comparison(_:_:_:options:quantifier:)``.
package enum ComparisonOperator: String, Sendable, Hashable, CaseIterable {
    /// `==` or `=`.
    case equal = "=="
    /// `!=` or `<>`.
    case notEqual = "!="
    /// `<`.
    case less = "<"
    /// `<=` or `=<`.
    case lessOrEqual = "<="
    /// `>`.
    case greater = ">"
    /// `>=` or `=>`.
    case greaterOrEqual = ">="
    /// `BEGINSWITH`: the left string starts with the right one.
    case beginsWith = "BEGINSWITH"
    /// `ENDSWITH`: the left string ends with the right one.
    case endsWith = "ENDSWITH"
    /// `CONTAINS`: the left string (or collection) contains the right one.
    case contains = "CONTAINS"
    /// `LIKE`: wildcard match, `*` for any run of characters and `?` for one character.
    case like = "LIKE"
    /// `MATCHES`: ICU regular expression over the whole string.
    case matches = "MATCHES"
    /// `IN`: the left value is a member of the right collection (or substring of a string).
    case `in` = "IN"
}

/// The `[c]`, `[d]`, `[cd]` modifiers written after a comparison operator.
package struct ComparisonOptions: OptionSet, Sendable, Hashable {
    /// The raw bits.
    package let rawValue: UInt8

    /// Creates options from raw bits.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `c`: compare ignoring case.
    package static let caseInsensitive = ComparisonOptions(rawValue: 1 << 0)
    /// `d`: compare ignoring diacritics (accents).
    package static let diacriticInsensitive = ComparisonOptions(rawValue: 1 << 1)
}

/// The aggregate qualifier in front of a comparison on a to-many key path.
package enum Quantifier: String, Sendable, Hashable {
    /// `ANY` or `SOME`: at least one member matches.
    case any = "ANY"
    /// `ALL`: every member matches.
    case all = "ALL"
    /// `NONE`: no member matches.
    case none = "NONE"
}
