import Foundation

/// SQLite's conversions between storage classes, as the evaluator needs them: numbers from text (for
/// arithmetic and truth values) and text from numbers (for the string functions' arguments).
enum SQLiteValueConversion {
    /// A number as SQLite's arithmetic sees it.
    enum Number {
        case integer(Int64)
        case real(Double)

        /// The number as a `Double`.
        var real: Double? {
            switch self {
            case .integer(let integer): Double(integer)
            case .real(let real): real
            }
        }
    }

    /// The number a value stands for in arithmetic: `nil` for `NULL`; text that is not a number and blobs are 0.
    static func number(_ value: StoredValue) -> Number? {
        switch value {
        case .null: nil
        case .integer(let integer): .integer(integer)
        case .real(let real): .real(real)
        case .text(let text): number(text)
        case .blob: .integer(0)
        }
    }

    /// A value as Strata's floating-point functions read it: the text `'NaN'` (stored NaN) is NaN, anything else
    /// the number it stands for (0 for `NULL`).
    static func real(_ value: StoredValue) -> Double {
        value == .text("NaN") ? .nan : number(value)?.real ?? 0
    }

    /// The number text stands for (0 when it is not one).
    static func number(_ text: String) -> Number {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let integer = Int64(trimmed) { return .integer(integer) }
        if let real = Double(trimmed), real.isFinite { return .real(real) }
        return .integer(0)
    }

    /// A value as a SQL function receives it as text ("" for `NULL`).
    static func text(_ value: StoredValue) -> String {
        switch value {
        case .null: ""
        case .integer(let integer): String(integer)
        case .real(let real): realText(real)
        case .text(let text): text
        case .blob(let bytes): String(decoding: bytes, as: UTF8.self)
        }
    }

    /// A value as a SQL function receives it as an integer (0 for `NULL` or non-numbers).
    static func integer(_ value: StoredValue) -> Int64 {
        switch number(value) {
        case .integer(let integer)?: integer
        case .real(let real)?: real.isFinite ? Int64(exactly: real.rounded(.towardZero)) ?? (real < 0 ? .min : .max) : 0
        case nil: 0
        }
    }

    /// SQLite's text for a real: 15 significant digits, always with a decimal point or exponent.
    private static func realText(_ real: Double) -> String {
        let text = String(format: "%.15g", real)
        return text.contains(where: { $0 == "." || $0 == "e" || $0 == "n" || $0 == "i" }) ? text : text + ".0"
    }
}
