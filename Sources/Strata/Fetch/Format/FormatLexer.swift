import Foundation

/// Splits a format string into ``FormatToken``s, working on its UTF-8 bytes.
///
/// The lexer never traps: every byte sequence yields tokens or a ``PredicateFormatError`` whose
/// offset points at the offending byte.
struct FormatLexer {
    /// The format being read, for error messages.
    let format: String
    /// The format's UTF-8 bytes.
    let bytes: [UInt8]
    /// The read position.
    var position = 0

    /// Prepares to read `format`.
    init(format: String) {
        self.format = format
        self.bytes = Array(format.utf8)
    }

    /// Reads every token, ending with one ``FormatToken/Kind/end`` token.
    /// - Throws: ``PredicateFormatError`` for an unterminated string, a bad escape or number, an
    ///   unknown `%` specifier or a character outside the language.
    mutating func tokenize() throws(PredicateFormatError) -> [FormatToken] {
        var tokens: [FormatToken] = []
        while true {
            skipWhitespace()
            guard position < bytes.count else { break }
            tokens.append(try nextToken())
        }
        tokens.append(FormatToken(kind: .end, text: "", offset: bytes.count, length: 0))
        return tokens
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    func byte(at index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    private mutating func nextToken() throws(PredicateFormatError) -> FormatToken {
        let start = position
        let first = bytes[position]
        switch first {
        case _ where Self.isWordStart(first):
            let word = readWord()
            return FormatToken(
                kind: .word, text: word, offset: start, length: position - start,
                keyword: FormatKeyword(word: word))
        case UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "$"):
            position += 1
            guard let next = byte(at: position), Self.isWordStart(next) else {
                throw error(
                    .unexpectedToken, at: start, length: 1,
                    message: "Expected a name after '\(Character(Unicode.Scalar(first)))'",
                    expected: "a name")
            }
            let word = readWord()
            let kind: FormatToken.Kind =
                first == UInt8(ascii: "#")
                ? .escapedWord : first == UInt8(ascii: "@") ? .atWord : .variable
            return FormatToken(kind: kind, text: word, offset: start, length: position - start)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let text = try readString(quote: first)
            return FormatToken(kind: .string, text: text, offset: start, length: position - start)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        case UInt8(ascii: ".") where byte(at: position + 1).map(Self.isDigit) == true:
            return try readNumber()
        case UInt8(ascii: "%"):
            return try readSpecifier()
        default:
            return try readSymbol()
        }
    }

    static func isWordStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        isWordStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    private mutating func readWord() -> String {
        let start = position
        while position < bytes.count, Self.isWordByte(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func readSpecifier() throws(PredicateFormatError) -> FormatToken {
        let start = position
        position += 1
        var letters = ""
        while let next = byte(at: position), letters.count < 3,
            Self.isWordStart(next) || next == UInt8(ascii: "@") || next == UInt8(ascii: "%")
        {
            letters.append(Character(Unicode.Scalar(next)))
            position += 1
            if Self.specifiers.contains(letters) {
                return FormatToken(kind: .specifier, text: letters, offset: start, length: position - start)
            }
            if !letters.allSatisfy({ $0 == "l" }) { break }
        }
        let message =
            letters == "%"
            ? "'%%' is only allowed inside a quoted string"
            : "Unknown format specifier '%\(letters)'"
        throw error(
            .unknownFormatSpecifier, at: start, length: position - start, message: message,
            expected: "%@, %K, %d, %i, %ld, %f or %lf")
    }

    /// The `%` specifiers the argument binder understands.
    static let specifiers: Set<String> = [
        "@", "K", "d", "i", "u", "ld", "li", "lu", "lld", "lli", "llu", "f", "lf",
    ]

    private mutating func readSymbol() throws(PredicateFormatError) -> FormatToken {
        let start = position
        let pair = byte(at: position + 1).map { String(decoding: [bytes[position], $0], as: UTF8.self) }
        if let pair, let normalized = Self.twoByteSymbols[pair] {
            position += 2
            return FormatToken(kind: .symbol, text: normalized, offset: start, length: 2)
        }
        let single = String(decoding: [bytes[position]], as: UTF8.self)
        if let normalized = Self.oneByteSymbols[single] {
            position += 1
            return FormatToken(kind: .symbol, text: normalized, offset: start, length: 1)
        }
        let scalarLength = Self.scalarLength(leadingByte: bytes[position])
        let end = min(position + scalarLength, bytes.count)
        let text = String(decoding: bytes[position..<end], as: UTF8.self)
        throw error(
            .unexpectedToken, at: start, length: end - start,
            message: "Unexpected character '\(text)'")
    }

    private static let twoByteSymbols: [String: String] = [
        "==": "==", "!=": "!=", "<>": "!=", "<=": "<=", "=<": "<=", ">=": ">=", "=>": ">=",
        "&&": "&&", "||": "||", "**": "**",
    ]

    private static let oneByteSymbols: [String: String] = [
        "=": "==", "<": "<", ">": ">", "!": "!", "+": "+", "-": "-", "*": "*", "/": "/",
        "(": "(", ")": ")", "{": "{", "}": "}", "[": "[", "]": "]", ",": ",", ".": ".",
    ]

    static func scalarLength(leadingByte byte: UInt8) -> Int {
        switch byte {
        case 0xF0...0xFF: 4
        case 0xE0...0xEF: 3
        case 0xC0...0xDF: 2
        default: 1
        }
    }

    func error(
        _ kind: PredicateFormatError.Kind, at offset: Int, length: Int, message: String,
        expected: String = ""
    ) -> PredicateFormatError {
        let end = min(offset + length, bytes.count)
        let token = String(decoding: bytes[min(offset, end)..<end], as: UTF8.self)
        return PredicateFormatError(
            kind, message: message, format: format, offset: offset,
            token: token, expected: expected)
    }
}
