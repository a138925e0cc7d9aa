import Foundation

/// Why a format string could not become a predicate: what went wrong, and where.
///
/// `offset` counts **UTF-8 bytes** from the start of ``format`` (what the lexer reads);
/// ``column`` gives the same spot in `Character`s. ``description`` shows the message, the
/// offending line and a caret under the spot:
///
/// ```
/// Expected a comparison operator after 'title' at offset 6
///   title CONTAIN "a"
///         ^
/// ```
public struct PredicateFormatError: Error, CustomStringConvertible, Hashable, Sendable {
    /// The category of a ``PredicateFormatError``.
    public enum Kind: Hashable, Sendable {
        /// A token that does not fit the grammar here.
        case unexpectedToken
        /// The format ended where more was required.
        case unexpectedEnd
        /// A quoted string without its closing quote.
        case unterminatedString
        /// A backslash escape inside a string that is not `\" \' \\ \n \t \r \0 \uXXXX`.
        case invalidEscape
        /// A malformed or out-of-range number literal.
        case invalidNumber
        /// A `%` specifier other than `%@ %K %d %i %ld %lld %u %lu %f %lf`.
        case unknownFormatSpecifier
        /// A specifier without a matching argument; the index is 0-based.
        case missingArgument(index: Int)
        /// More arguments than specifiers.
        case extraArguments(expected: Int, got: Int)
        /// An argument the specifier cannot take; the index is 0-based.
        case argumentTypeMismatch(index: Int, expected: String, got: String)
        /// A substitution-variable value that cannot become a `FormatValue`.
        case variableTypeMismatch(name: String, got: String)
        /// A modifier, `@` operator, function or reserved word Strata does not support.
        case unknownOperator
        /// A `$variable` that is neither substituted nor bound by an enclosing `SUBQUERY`.
        case unboundVariable(name: String)
        /// Parentheses, `NOT`s, subqueries or operator chains nested more than 200 levels deep.
        case tooDeeplyNested
        /// A format string longer than 1 MiB (1,048,576 UTF-8 bytes).
        case inputTooLong
        /// An `AND`/`OR` of more than 500 predicates, or a list of more than 10,000 values.
        case tooLarge
        /// A constant `MATCHES` pattern that is not a valid ICU regular expression.
        case invalidRegularExpression
    }

    /// The category of the error.
    public let kind: Kind
    /// The human sentence, without position (``description`` adds it).
    public let message: String
    /// The format string that was being read.
    public let format: String
    /// Where the problem is, in UTF-8 bytes from the start of ``format``.
    public let offset: Int
    /// The text of the offending token (empty at the end of input).
    public let token: String
    /// What the parser expected instead (empty when not applicable).
    public let expected: String

    /// Creates an error. Used by the parser, the argument binder and variable resolution.
    package init(
        _ kind: Kind, message: String, format: String, offset: Int,
        token: String = "", expected: String = ""
    ) {
        self.kind = kind
        self.message = message
        self.format = format
        self.offset = offset
        self.token = token
        self.expected = expected
    }

    /// The offset of the problem in `Character`s rather than UTF-8 bytes.
    public var column: Int {
        let utf8 = format.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: min(max(offset, 0), utf8.count))
        return format[..<end].count
    }

    /// The message, its offset, the offending line of the format and a caret under the spot. A message
    /// quoting very long input is shown by its start and end, with a note of how much was left out.
    public var description: String {
        "\(message.elided()) at offset \(offset)\n" + caretExcerpt()
    }
}
