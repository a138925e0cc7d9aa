import Foundation

/// A predicate written in Core Data's format-string language, for fetching on platforms where
/// `NSPredicate(format:)` is unavailable (swift-corelibs-foundation refuses it on Linux).
///
/// ```swift
/// let search = FormatPredicate(format: "title CONTAINS[c] %@ OR content CONTAINS[c] %@", text, text)
/// let open = FormatPredicate(format: "isCompleted == NO")
/// let both = search && open
/// ```
///
/// Creating a predicate never traps: a parse or argument error is kept inside the value and thrown by
/// ``validated()`` (and when the predicate is fetched); ``parse(format:_:)`` throws it straight away. Two predicates
/// are equal when their trees are equal, whatever spacing or synonyms the source used. The language, its nil rule
/// and its limits: <doc:CoreDataFormatStrings>.
public struct FormatPredicate: Sendable, Hashable, CustomStringConvertible {
    private enum Storage: Sendable, Hashable {
        case parsed(FormatExpression)
        case failed(PredicateFormatError)
    }

    private let storage: Storage
    /// The text the predicate was parsed from, for positioning later errors; not part of equality.
    private let sourceFormat: String?

    private init(storage: Storage, sourceFormat: String?) {
        self.storage = storage
        self.sourceFormat = sourceFormat
    }

    /// Creates a predicate from a format string, binding `%` specifiers to `arguments` in order.
    ///
    /// Never traps: an error is kept and thrown by ``validated()`` or at fetch time.
    ///
    /// ```swift
    /// let predicate = FormatPredicate(format: "ANY tags.name ==[c] %@", "swift")
    /// ```
    public init(format: String, _ arguments: any Sendable...) {
        self.init(format: format, argumentArray: arguments)
    }

    /// Creates a predicate from a format string and an array of arguments.
    ///
    /// Never traps: an error is kept and thrown by ``validated()`` or at fetch time.
    public init(format: String, argumentArray: [any Sendable]) {
        do throws(PredicateFormatError) {
            let expression = try FormatParser.parse(format: format, arguments: argumentArray.map { $0 as Any })
            if let violation = expression.sizeViolation {
                self.init(
                    storage: .failed(PredicateFormatError(.tooLarge, message: violation, format: format, offset: 0)),
                    sourceFormat: format)
                return
            }
            self.init(storage: .parsed(expression), sourceFormat: format)
        } catch {
            self.init(storage: .failed(error), sourceFormat: format)
        }
    }

    /// Parses a format string, throwing at once if it is malformed or its arguments do not fit.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate.parse(format: "priority > %d", 2)
    /// ```
    /// - Throws: ``PredicateFormatError`` describing the problem and where it is.
    public static func parse(
        format: String, _ arguments: any Sendable...
    ) throws(PredicateFormatError) -> FormatPredicate {
        let predicate = FormatPredicate(format: format, argumentArray: arguments)
        if case .failed(let error) = predicate.storage { throw error }
        return predicate
    }

    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    public init(value: Bool) {
        self.init(expression: .constant(value))
    }

    /// Wraps a tree, refusing one deeper than ``FormatExpression/maximumTreeDepth`` nodes (such
    /// as `!` applied thousands of times in code) or holding an invalid constant `MATCHES` pattern
    /// (such as one substituted for a variable), or over a size limit (``FormatExpression/maximumCompoundMembers``
    /// members in one `AND`/`OR`, ``FormatExpression/maximumListCount`` values in one list).
    package init(expression: FormatExpression) {
        if expression.exceedsDepth(FormatExpression.maximumTreeDepth) {
            let error = PredicateFormatError(
                .tooDeeplyNested,
                message: "The predicate is nested more than \(FormatExpression.maximumTreeDepth) levels deep",
                format: "", offset: 0)
            self.init(storage: .failed(error), sourceFormat: nil)
        } else if let violation = expression.sizeViolation {
            let error = PredicateFormatError(.tooLarge, message: violation, format: "", offset: 0)
            self.init(storage: .failed(error), sourceFormat: nil)
        } else if let pattern = expression.firstInvalidPattern {
            let text = expression.predicateFormat
            let offset =
                text.utf8.firstRange(of: Array("MATCHES".utf8))
                .map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) } ?? 0
            let error = PredicateFormatError(
                .invalidRegularExpression, message: "Invalid regular expression for MATCHES: '\(pattern)'",
                format: text, offset: offset, token: "MATCHES", expected: "an ICU regular expression")
            self.init(storage: .failed(error), sourceFormat: nil)
        } else {
            self.init(storage: .parsed(expression), sourceFormat: nil)
        }
    }

    /// A predicate holding `error`.
    package init(failing error: PredicateFormatError) {
        self.init(storage: .failed(error), sourceFormat: nil)
    }

    /// The parsed tree, or `nil` when the predicate holds an error. Variables may be unbound.
    package var expression: FormatExpression? {
        if case .parsed(let expression) = storage { return expression }
        return nil
    }

    /// The kept error, if the predicate failed to parse or build.
    package var error: PredicateFormatError? {
        if case .failed(let error) = storage { return error }
        return nil
    }

    /// The tree, ready for translation: parsed, with every variable substituted or bound by a
    /// `SUBQUERY`.
    /// - Throws: the kept ``PredicateFormatError``, or ``PredicateFormatError/Kind/unboundVariable(name:)``.
    package func resolvedExpression() throws(PredicateFormatError) -> FormatExpression {
        switch storage {
        case .failed(let error):
            throw error
        case .parsed(let expression):
            if let name = expression.firstUnboundVariable {
                throw variableError(
                    .unboundVariable(name: name), name: name,
                    message: "Variable $\(name) has no value; pass it to withSubstitutionVariables(_:)")
            }
            return expression
        }
    }

    /// An error about `$name`, positioned at its first mention in the source (or canonical) text.
    func variableError(_ kind: PredicateFormatError.Kind, name: String, message: String) -> PredicateFormatError {
        let text = sourceFormat ?? predicateFormat
        let offset =
            text.utf8.firstRange(of: Array(("$" + name).utf8))
            .map { text.utf8.distance(from: text.utf8.startIndex, to: $0.lowerBound) } ?? 0
        return PredicateFormatError(kind, message: message, format: text, offset: offset, token: "$" + name)
    }

    /// This predicate, if it parsed and every variable has a value.
    ///
    /// ```swift
    /// let predicate = try FormatPredicate(format: userText).validated()
    /// ```
    /// - Throws: ``PredicateFormatError`` for a parse or argument error or an unbound variable.
    @discardableResult
    public func validated() throws(PredicateFormatError) -> FormatPredicate {
        _ = try resolvedExpression()
        return self
    }

    /// The canonical text of the predicate, like `NSPredicate.predicateFormat`; parsing it gives
    /// an equal predicate. A predicate holding an error returns the format it was created from.
    public var predicateFormat: String {
        switch storage {
        case .parsed(let expression): expression.predicateFormat
        case .failed: sourceFormat ?? ""
        }
    }

    /// ``predicateFormat``.
    public var description: String { predicateFormat }

    /// Equal when both hold equal trees (or equal errors); the source spelling does not matter.
    public static func == (lhs: FormatPredicate, rhs: FormatPredicate) -> Bool {
        lhs.storage == rhs.storage
    }

    /// Hashes the tree (or error).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage)
    }
}
