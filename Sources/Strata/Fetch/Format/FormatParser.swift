import Foundation

/// Parses a format string (with its arguments) into a ``FormatExpression``.
///
/// A precedence-climbing parser over one grammar for predicates *and* operands, so parentheses
/// can group either without backtracking. Binding strength, loosest first:
/// `OR ||` < `AND &&` < `NOT !` < comparisons (non-associative) < `+ -` < `* /` < `**` < unary `-` <
/// key-path tails (`.key`, `.@count`).
///
/// Recursion only happens at nesting (parentheses, `NOT`, `ANY`, unary minus, `{…}`, `SUBQUERY`,
/// `CAST`, function calls), and every nesting step is counted against ``maximumDepth``, so hostile
/// input gets ``PredicateFormatError/Kind/tooDeeplyNested`` instead of a stack overflow.
struct FormatParser {
    /// The deepest nesting accepted.
    static let maximumDepth = 200
    /// The longest format accepted, in UTF-8 bytes (1 MiB).
    static let maximumLength = 1 << 20
    /// The functions callable as `name(arguments…)`; matched case-sensitively like Core Data.
    static let functionNames: Set<String> = [
        "now", "lowercase", "uppercase", "abs", "ceiling", "floor", "sqrt", "trunc",
        "sum", "count", "min", "max", "average",
    ]

    /// A parse result: predicates and operands share the grammar until a consumer needs one.
    enum Parsed {
        /// Something boolean: a comparison, compound or constant predicate.
        case predicate(FormatExpression)
        /// Something compared: a key path, value, aggregate, subquery, arithmetic, call.
        case operand(FormatOperand)
    }

    /// The format being parsed, for errors.
    let format: String
    /// Its UTF-8 bytes, for the source text of tokens in errors.
    let bytes: [UInt8]
    /// The tokens, ending with an `end` token.
    let tokens: [FormatToken]
    /// The read position in ``tokens``.
    var index = 0
    /// The `%` arguments, bound in order of appearance.
    let arguments: [Any]
    /// The next argument to bind.
    var argumentIndex = 0
    /// The current nesting depth, checked against ``maximumDepth``.
    var depth = 0

    /// Parses `format`, binding `%` specifiers to `arguments` in order.
    /// - Throws: ``PredicateFormatError`` for any lexical, grammatical or argument problem.
    static func parse(format: String, arguments: [Any]) throws(PredicateFormatError) -> FormatExpression {
        guard format.utf8.count <= maximumLength else {
            throw PredicateFormatError(
                .inputTooLong,
                message: "The format is \(format.utf8.count) bytes long; the limit is \(maximumLength)",
                format: format, offset: maximumLength)
        }
        var lexer = FormatLexer(format: format)
        var parser = FormatParser(
            format: format, bytes: lexer.bytes, tokens: try lexer.tokenize(),
            arguments: arguments)
        return try parser.parseFormat()
    }

    private mutating func parseFormat() throws(PredicateFormatError) -> FormatExpression {
        let parsed = try parseBinary(minimumPrecedence: 0)
        if current.kind != .end, case .predicate = parsed {
            throw unexpected("AND, OR or the end of the predicate")
        }
        let expression = try requirePredicate(parsed)
        if current.kind != .end {
            throw unexpected("the end of the predicate")
        }
        if argumentIndex < arguments.count {
            throw PredicateFormatError(
                .extraArguments(expected: argumentIndex, got: arguments.count),
                message: "The format uses \(argumentIndex) argument(s) but \(arguments.count) were given",
                format: format, offset: bytes.count)
        }
        return expression
    }

    // MARK: - Binary operators

    private enum BinaryOperator {
        case logical(isAnd: Bool)
        case comparison
        case arithmetic(ArithmeticOperator)

        var precedence: Int {
            switch self {
            case .logical(let isAnd): isAnd ? 2 : 1
            case .comparison: 4
            case .arithmetic(let op): op == .add || op == .subtract ? 5 : op == .power ? 7 : 6
            }
        }
    }

    /// The precedence `NOT` parses its operand at: tighter than `AND`, looser than comparisons.
    static let notOperandPrecedence = 3
    /// The precedence comparison sides and other operands parse at.
    static let operandPrecedence = 5

    private var binaryOperator: BinaryOperator? {
        let token = current
        switch token.kind {
        case .symbol:
            switch token.text {
            case "&&": return .logical(isAnd: true)
            case "||": return .logical(isAnd: false)
            case "==", "!=", "<", "<=", ">", ">=": return .comparison
            default: return ArithmeticOperator(rawValue: token.text).map { .arithmetic($0) }
            }
        case .word:
            switch token.keyword {
            case .and: return .logical(isAnd: true)
            case .or: return .logical(isAnd: false)
            case .beginsWith, .endsWith, .contains, .like, .matches, .in, .between: return .comparison
            default: return nil
            }
        default:
            return nil
        }
    }

    /// Parses operators binding at least as tightly as `minimumPrecedence`.
    mutating func parseBinary(minimumPrecedence: Int) throws(PredicateFormatError) -> Parsed {
        var lhs = try parsePrefix()
        // An AND/OR chain built in this loop: later members append in place (no re-copying), and
        // only this loop's chain is flattened, so parentheses keep their nesting.
        var chain: (isAnd: Bool, members: [FormatExpression])?
        var chainLength = 0
        while let op = binaryOperator, op.precedence >= minimumPrecedence {
            switch op {
            case .logical(let isAnd):
                if chain?.isAnd != isAnd {
                    let left = if let open = chain { Self.close(open) } else { try requirePredicate(lhs) }
                    chain = (isAnd, [left])
                }
                advance()
                let right = try requirePredicate(parseBinary(minimumPrecedence: op.precedence + 1))
                chain?.members.append(right)
            case .comparison:
                if let open = chain { lhs = .predicate(Self.close(open)) }
                chain = nil
                let left = try requireOperand(lhs, before: "a comparison operator")
                lhs = .predicate(try parseComparison(left, quantifier: nil))
            case .arithmetic(let arithmetic):
                if let open = chain { lhs = .predicate(Self.close(open)) }
                chain = nil
                let left = try requireOperand(lhs, before: "'\(arithmetic.rawValue)'")
                // A chain `a + b + c …` nests to the left without recursing; count it as depth.
                chainLength += 1
                guard depth + chainLength <= Self.maximumDepth else {
                    throw error(
                        .tooDeeplyNested,
                        "The expression is nested more than \(Self.maximumDepth) levels deep", at: current)
                }
                advance()
                let right = try requireOperand(parseBinary(minimumPrecedence: op.precedence + 1))
                lhs = .operand(.arithmetic(left, arithmetic, right))
            }
        }
        if let open = chain { lhs = .predicate(Self.close(open)) }
        return lhs
    }

    private static func close(_ chain: (isAnd: Bool, members: [FormatExpression])) -> FormatExpression {
        chain.isAnd ? .and(chain.members) : .or(chain.members)
    }

    // MARK: - Prefix forms

    /// Parses `NOT`, quantifiers, parentheses, unary minus, `TRUEPREDICATE`/`FALSEPREDICATE` and
    /// primary operands. Counts nesting against ``maximumDepth``.
    mutating func parsePrefix() throws(PredicateFormatError) -> Parsed {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.maximumDepth else {
            throw error(
                .tooDeeplyNested, "The predicate is nested more than \(Self.maximumDepth) levels deep",
                at: current)
        }
        let token = current
        if token.isSymbol("!") || token.isKeyword(.not) {
            advance()
            let operand = try parseBinary(minimumPrecedence: Self.notOperandPrecedence)
            return .predicate(.not(try requirePredicate(operand)))
        }
        if token.isSymbol("(") {
            advance()
            let inner = try parseBinary(minimumPrecedence: 0)
            try expect(")", "')'")
            return inner
        }
        if token.isSymbol("-") {
            advance()
            if current.kind == .number {
                return .operand(.value(try numberValue(negative: true)))
            }
            let operand = try requireOperand(parsePrefix())
            return .operand(.arithmetic(.value(.int(0)), .subtract, operand))
        }
        switch token.keyword {
        case .truePredicate?, .falsePredicate?:
            advance()
            return .predicate(.constant(token.isKeyword(.truePredicate)))
        case .any?, .some?, .all?, FormatKeyword.none?:
            advance()
            let quantifier: Quantifier = token.isKeyword(.all) ? .all : token.isKeyword(.none) ? .none : .any
            let left = try parseOperand()
            guard case .comparison? = binaryOperator, !current.isKeyword(.between) else {
                throw unexpected("a comparison operator")
            }
            return .predicate(try parseComparison(left, quantifier: quantifier))
        default:
            return .operand(try parsePrimary())
        }
    }

    // MARK: - Comparisons

    private mutating func parseComparison(
        _ left: FormatOperand, quantifier: Quantifier?
    ) throws(PredicateFormatError) -> FormatExpression {
        let token = current
        advance()
        let options = try parseOptions()
        let rightStart = current
        let right = try parseOperand()
        if token.isKeyword(.between) {
            switch right {
            case .value(.array(let bounds)) where bounds.count == 2:
                return .between(left, lower: .value(bounds[0]), upper: .value(bounds[1]))
            case .aggregate(let bounds) where bounds.count == 2:
                return .between(left, lower: bounds[0], upper: bounds[1])
            default:
                throw error(
                    .unexpectedToken, "BETWEEN needs exactly two bounds, as in {lower, upper}",
                    at: rightStart, expected: "{lower, upper}")
            }
        }
        let named: ComparisonOperator? =
            switch token.keyword {
            case .beginsWith: .beginsWith
            case .endsWith: .endsWith
            case .contains: .contains
            case .like: .like
            case .matches: .matches
            case .in: .in
            default: nil
            }
        guard let op = named ?? ComparisonOperator(rawValue: token.text) else {
            throw error(.unknownOperator, "Unknown comparison operator '\(source(of: token))'", at: token)
        }
        if op == .matches, case .value(.string(let pattern)) = right,
            !FormatExpression.isValidPattern(pattern, options: options)
        {
            throw error(
                .invalidRegularExpression, "Invalid regular expression for MATCHES: '\(pattern)'", at: rightStart,
                expected: "an ICU regular expression")
        }
        return .comparison(left, op, right, options: options, quantifier: quantifier)
    }

    /// Parses an optional `[c]`, `[d]` or `[cd]` right after a comparison operator.
    private mutating func parseOptions() throws(PredicateFormatError) -> ComparisonOptions {
        guard current.isSymbol("[") else { return [] }
        advance()
        let letters = current
        guard letters.kind == .word else { throw unexpected("a modifier: c, d or cd") }
        var options: ComparisonOptions = []
        for letter in letters.text.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default:
                throw error(
                    .unknownOperator, "Unknown comparison modifier '\(letters.text)'",
                    at: letters, expected: "c, d or cd")
            }
        }
        advance()
        try expect("]", "']'")
        return options
    }
}
