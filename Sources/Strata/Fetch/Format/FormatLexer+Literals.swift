import Foundation

extension FormatLexer {
    /// Reads a quoted string starting at the opening `quote`, unescaping `\" \' \\ \n \t \r \0`,
    /// `\uXXXX` (surrogate pairs included) and `%%` (→ `%`). Other text is taken verbatim, so a
    /// quoted `"%@"` is the two characters `%@`, as in Core Data.
    mutating func readString(quote: UInt8) throws(PredicateFormatError) -> String {
        let start = position
        position += 1
        var content: [UInt8] = []
        while let next = byte(at: position) {
            switch next {
            case quote:
                position += 1
                return String(decoding: content, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try readEscape(into: &content)
            case UInt8(ascii: "%") where byte(at: position + 1) == UInt8(ascii: "%"):
                content.append(next)
                position += 2
            default:
                content.append(next)
                position += 1
            }
        }
        throw error(
            .unterminatedString, at: start, length: 1,
            message: "Unterminated string: missing closing \(Character(Unicode.Scalar(quote)))",
            expected: String(Character(Unicode.Scalar(quote))))
    }

    private mutating func readEscape(into content: inout [UInt8]) throws(PredicateFormatError) {
        let start = position
        position += 1
        guard let escaped = byte(at: position) else {
            throw error(
                .unterminatedString, at: start, length: 1,
                message: "Unterminated string: it ends with a backslash")
        }
        position += 1
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): UInt8(ascii: "\""), UInt8(ascii: "'"): UInt8(ascii: "'"),
            UInt8(ascii: "\\"): UInt8(ascii: "\\"), UInt8(ascii: "n"): 0x0A,
            UInt8(ascii: "t"): 0x09, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "0"): 0x00,
        ]
        if let replacement = simple[escaped] {
            content.append(replacement)
            return
        }
        guard escaped == UInt8(ascii: "u") else {
            throw error(
                .invalidEscape, at: start, length: 2,
                message: "Unknown escape sequence in string",
                expected: "\\\", \\', \\\\, \\n, \\t, \\r, \\0 or \\uXXXX")
        }
        var scalar = try readHexQuad(escapeStart: start)
        if (0xD800...0xDBFF).contains(scalar) {
            guard byte(at: position) == UInt8(ascii: "\\"), byte(at: position + 1) == UInt8(ascii: "u") else {
                throw invalidUnicodeEscape(at: start)
            }
            position += 2
            let low = try readHexQuad(escapeStart: start)
            guard (0xDC00...0xDFFF).contains(low) else { throw invalidUnicodeEscape(at: start) }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw invalidUnicodeEscape(at: start) }
        content.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func readHexQuad(escapeStart: Int) throws(PredicateFormatError) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
        else { throw invalidUnicodeEscape(at: escapeStart) }
        position += 4
        return value
    }

    private func invalidUnicodeEscape(at offset: Int) -> PredicateFormatError {
        error(
            .invalidEscape, at: offset, length: 2,
            message: "Invalid \\u escape: expected four hex digits naming a Unicode scalar",
            expected: "\\uXXXX")
    }

    /// Reads a number: decimal digits with optional fraction and exponent, or `0x`/`0o`/`0b`
    /// digits. The sign is a separate `-` token.
    mutating func readNumber() throws(PredicateFormatError) -> FormatToken {
        let start = position
        let prefix = byte(at: position + 1).map { Character(Unicode.Scalar($0)).lowercased() }
        if bytes[position] == UInt8(ascii: "0"), let prefix, ["x", "o", "b"].contains(prefix) {
            position += 2
            while let next = byte(at: position), Self.isWordByte(next) { position += 1 }
        } else {
            skipDigits()
            if byte(at: position) == UInt8(ascii: "."), byte(at: position + 1).map(Self.isDigit) == true {
                position += 1
                skipDigits()
            }
            if let marker = byte(at: position), marker | 0x20 == UInt8(ascii: "e") {
                var probe = position + 1
                if let sign = byte(at: probe), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    probe += 1
                }
                if byte(at: probe).map(Self.isDigit) == true {
                    position = probe
                    skipDigits()
                }
            }
        }
        let trailing = byte(at: position)
        if let trailing, Self.isWordByte(trailing) || trailing == UInt8(ascii: ".") {
            while let next = byte(at: position), Self.isWordByte(next) || next == UInt8(ascii: ".") {
                position += 1
            }
            throw error(
                .invalidNumber, at: start, length: position - start,
                message: "Malformed number", expected: "a number")
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        return FormatToken(kind: .number, text: text, offset: start, length: position - start)
    }

    private mutating func skipDigits() {
        while let next = byte(at: position), Self.isDigit(next) { position += 1 }
    }
}

extension FormatValue {
    /// The value of a number token's `text`, negated when `negative`; `nil` when the text is
    /// malformed, an integer does not fit `Int64`, or a double is not finite.
    static func number(_ text: String, negative: Bool) -> FormatValue? {
        if text.utf8.allSatisfy(FormatLexer.isDigit) {
            return integer(magnitude: UInt64(text, radix: 10), negative: negative)
        }
        let lowered = text.lowercased()
        let radix: Int? =
            lowered.hasPrefix("0x")
            ? 16
            : lowered.hasPrefix("0o")
                ? 8
                : lowered.hasPrefix("0b") ? 2 : nil
        if let radix {
            return integer(magnitude: UInt64(lowered.dropFirst(2), radix: radix), negative: negative)
        }
        if lowered.contains(".") || lowered.contains("e") {
            guard let magnitude = Double(lowered), magnitude.isFinite else { return nil }
            return .double(negative ? -magnitude : magnitude)
        }
        return integer(magnitude: UInt64(lowered, radix: 10), negative: negative)
    }

    private static func integer(magnitude: UInt64?, negative: Bool) -> FormatValue? {
        guard let magnitude else { return nil }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
            return Int64(exactly: magnitude).map { .int(-$0) }
        }
        return Int64(exactly: magnitude).map { .int($0) }
    }
}
