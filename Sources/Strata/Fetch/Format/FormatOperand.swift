import Foundation

/// A value-producing node of a format predicate: the sides of a comparison.
///
/// Key paths never contain `@` components: `tasks.@avg.priority` parses as
/// `.collectionOperation(.keyPath(["tasks"]), .average, ["priority"])`, and a subquery followed by
/// `.@count` as `.collectionOperation(.subquery(…), .count, [])`.
package indirect enum FormatOperand: Sendable, Hashable {
    /// A key path on the evaluated object, e.g. `["author", "name"]` for `author.name`.
    /// `SELF.name` parses as `["name"]`. Components from `%K` are kept verbatim (unchecked).
    case keyPath([String])
    /// `SELF`: the evaluated object itself.
    case evaluatedObject
    /// A constant.
    case value(FormatValue)
    /// A `{a, b, …}` literal with at least one non-constant member (all-constant ones fold into
    /// ``FormatValue/array(_:)``).
    case aggregate([FormatOperand])
    /// `$name`: a substitution variable, or a subquery's iteration variable.
    case variable(String)
    /// `$name.a.b`: a key path starting at a variable (usually a subquery's iteration variable).
    case variableKeyPath(String, [String])
    /// `SUBQUERY(collection, $variable, predicate)`: the members of `collection` matching
    /// `predicate`, where `$variable` names the member being tested.
    case subquery(collection: FormatOperand, variable: String, predicate: FormatExpression)
    /// `collection.@operator` or `collection.@operator.key.path` (`tasks.@avg.priority`).
    case collectionOperation(FormatOperand, CollectionOperator, [String])
    /// `lhs + rhs`, `lhs - rhs`, `lhs * rhs`, `lhs / rhs`, `lhs ** rhs`. A unary minus on a non-literal is
    /// `0 - operand`.
    case arithmetic(FormatOperand, ArithmeticOperator, FormatOperand)
    /// `name(arguments…)`, one of ``FormatParser/functionNames``, e.g. `now()`.
    case function(String, [FormatOperand])
}

/// The `@` operators of a key path.
package enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count`: the number of members.
    case count = "@count"
    /// `@sum.key`: the sum of `key` over the members.
    case sum = "@sum"
    /// `@avg.key`: the average of `key` over the members.
    case average = "@avg"
    /// `@min.key`: the smallest `key` among the members.
    case minimum = "@min"
    /// `@max.key`: the largest `key` among the members.
    case maximum = "@max"
}

/// The operators of ``FormatOperand/arithmetic(_:_:_:)``.
package enum ArithmeticOperator: String, Sendable, Hashable, CaseIterable {
    /// `+`.
    case add = "+"
    /// `-`.
    case subtract = "-"
    /// `*`.
    case multiply = "*"
    /// `/`.
    case divide = "/"
    /// `**`: the left number raised to the power of the right one (a floating-point result).
    case power = "**"
}
