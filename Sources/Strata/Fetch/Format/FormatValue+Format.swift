import Foundation

extension FormatValue {
    /// The canonical format-language spelling of the value; parsing it yields the same value.
    ///
    /// Strings are double-quoted with `\"`, `\\`, `\n`, `\t`, `\r`, `\uXXXX` escapes and `%`
    /// doubled; values with no literal use `CAST` (see ``FormatParser/parseCast()``).
    package var predicateFormat: String {
        switch self {
        case .null: "NULL"
        case .bool(let value): value ? "YES" : "NO"
        case .int(let value): String(value)
        case .double(let value): Self.doubleText(value)
        case .decimal(let value): "CAST(\(Self.quoted(value.description)), \"NSDecimalNumber\")"
        case .string(let value): Self.quoted(value)
        case .date(let value): "CAST(\(Self.doubleText(value.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .uuid(let value): "CAST(\(Self.quoted(value.uuidString)), \"NSUUID\")"
        case .data(let value): "CAST(\(Self.quoted(value.base64EncodedString())), \"NSData\")"
        case .url(let value): "CAST(\(Self.quoted(value.absoluteString)), \"NSURL\")"
        case .array(let values): "{" + values.map(\.predicateFormat).joined(separator: ", ") + "}"
        }
    }

    /// A double in shortest round-trip form, always with a fraction or exponent so it reads back
    /// as a double.
    private static func doubleText(_ value: Double) -> String {
        let text = value.description
        return text.contains(".") || text.contains("e") ? text : text + ".0"
    }

    /// `text` as a double-quoted string literal.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "%": result += "%%"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
