import Foundation

extension FormatParser {
    /// Parses `CAST(constant, "Type")`, folding it into a typed constant. This is how
    /// ``FormatPredicate/predicateFormat`` spells values that have no literal of their own:
    ///
    /// | Type               | Constant                                   | Value            |
    /// |--------------------|--------------------------------------------|------------------|
    /// | `NSDate`           | seconds since 2001-01-01 00:00:00 UTC      | `Date`           |
    /// | `NSDecimalNumber`  | decimal text, e.g. `"12.50"`               | `Decimal`        |
    /// | `NSUUID`           | UUID text                                  | `UUID`           |
    /// | `NSData`           | base64 text                                | `Data`           |
    /// | `NSURL`            | absolute URL text                          | `URL`            |
    /// | `NSNumber`         | number text, e.g. `"42"`                   | integer / double |
    /// | `NSString`         | a number                                   | its text         |
    mutating func parseCast() throws(PredicateFormatError) -> FormatOperand {
        advance()
        try expect("(", "'(' after CAST")
        let valueToken = current
        let operand = try parseOperand()
        try expect(",", "',' after the value to CAST")
        let typeToken = current
        guard typeToken.kind == .string else { throw unexpected("a quoted type name such as \"NSDate\"") }
        advance()
        try expect(")", "')' closing CAST")
        guard case .value(let value) = operand, let cast = Self.cast(value, to: typeToken.text) else {
            throw error(
                .unexpectedToken, "CAST cannot turn this value into \(typeToken.text)",
                at: valueToken, expected: "a constant convertible to \(typeToken.text)")
        }
        return .value(cast)
    }

    private static func cast(_ value: FormatValue, to type: String) -> FormatValue? {
        switch (type, value) {
        case ("NSDate", .int(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
        case ("NSDate", .double(let seconds)):
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case ("NSDecimalNumber", .string(let text)):
            return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).flatMap {
                $0.isNaN ? nil : .decimal($0)
            }
        case ("NSDecimalNumber", .int(let integer)):
            return .decimal(Decimal(integer))
        case ("NSUUID", .string(let text)):
            return UUID(uuidString: text).map { .uuid($0) }
        case ("NSData", .string(let text)):
            return Data(base64Encoded: text).map { .data($0) }
        case ("NSURL", .string(let text)):
            return URL(string: text).map { .url($0) }
        case ("NSNumber", .string(let text)):
            let trimmed = text.hasPrefix("-") ? String(text.dropFirst()) : text
            return FormatValue.number(trimmed, negative: text.hasPrefix("-"))
        case ("NSString", .int(let integer)):
            return .string(String(integer))
        case ("NSString", .double(let double)):
            return .string(String(double))
        default:
            return nil
        }
    }
}
