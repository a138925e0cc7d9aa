import Foundation

extension FormatParser {
    /// The token at the read position (the final `end` token once input is exhausted).
    var current: FormatToken {
        tokens[min(index, tokens.count - 1)]
    }

    /// Moves past the current token (never past `end`).
    mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// Consumes the symbol `symbol` or throws, describing it as `description`.
    mutating func expect(_ symbol: String, _ description: String) throws(PredicateFormatError) {
        guard current.isSymbol(symbol) else { throw unexpected(description) }
        advance()
    }

    /// The source spelling of `token`.
    func source(of token: FormatToken) -> String {
        let end = min(token.offset + token.length, bytes.count)
        return String(decoding: bytes[min(token.offset, end)..<end], as: UTF8.self)
    }

    /// An error at `token`.
    func error(
        _ kind: PredicateFormatError.Kind, _ message: String, at token: FormatToken, expected: String = ""
    ) -> PredicateFormatError {
        PredicateFormatError(
            kind, message: message, format: format, offset: token.offset,
            token: source(of: token), expected: expected)
    }

    /// "Expected `expected` after '<previous token>'", at the current token; `unexpectedEnd` when
    /// the input is exhausted.
    func unexpected(_ expected: String) -> PredicateFormatError {
        let token = current
        var message = "Expected \(expected)"
        if index > 0 {
            message += " after '\(source(of: tokens[index - 1]))'"
        }
        if token.kind == .end {
            return error(.unexpectedEnd, message + " but the format ended", at: token, expected: expected)
        }
        return error(.unexpectedToken, message, at: token, expected: expected)
    }

    /// The predicate `parsed` is, or an error at the current token asking for a comparison.
    func requirePredicate(_ parsed: Parsed) throws(PredicateFormatError) -> FormatExpression {
        switch parsed {
        case .predicate(let expression): return expression
        case .operand: throw unexpected("a comparison operator")
        }
    }

    /// The operand `parsed` is, or an error at the current token (a predicate cannot be compared
    /// or used in arithmetic).
    func requireOperand(_ parsed: Parsed, before what: String? = nil) throws(PredicateFormatError) -> FormatOperand {
        switch parsed {
        case .operand(let operand):
            return operand
        case .predicate:
            let message =
                what.map { "A predicate cannot be the left side of \($0)" }
                ?? "Expected a value, key path or expression, not a predicate"
            let spot = what == nil && index > 0 ? tokens[index - 1] : current
            throw error(.unexpectedToken, message, at: spot, expected: "a value, key path or expression")
        }
    }

    /// Converts the current number token, negated when `negative`, and moves past it.
    mutating func numberValue(negative: Bool) throws(PredicateFormatError) -> FormatValue {
        let token = current
        guard let value = FormatValue.number(token.text, negative: negative) else {
            throw error(
                .invalidNumber, "Number '\(negative ? "-" : "")\(token.text)' is out of range or malformed",
                at: token, expected: "a 64-bit integer or a finite number")
        }
        advance()
        return value
    }
}

extension FormatParser {
    /// Parses one operand (a comparison side, list member or call argument): everything binding
    /// tighter than comparisons.
    /// - Throws: ``PredicateFormatError`` when the input there is a predicate or malformed.
    mutating func parseOperand() throws(PredicateFormatError) -> FormatOperand {
        try requireOperand(parseBinary(minimumPrecedence: Self.operandPrecedence))
    }
}
