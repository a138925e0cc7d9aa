import Foundation

/// A constant value inside a format predicate: a literal written in the format string, an argument
/// bound to `%@`, `%d`, `%f` and friends, or a value given to
/// ``FormatPredicate/withSubstitutionVariables(_:)``.
///
/// Arguments are converted once, when the predicate is created, so the tree stays `Sendable` and
/// `Hashable`. Integers of every width become ``int(_:)``, floating-point numbers ``double(_:)``,
/// arrays and sets ``array(_:)``, `nil` ``null`` and `RawRepresentable` values their raw value.
///
/// ```swift
/// let predicate = FormatPredicate(format: "priority > %d", 2)
/// // predicate.expression == .comparison(.keyPath(["priority"]), .greater, .value(.int(2)), …)
/// ```
package enum FormatValue: Sendable, Hashable {
    /// `NULL` / `NIL`, or an optional argument that was `nil`.
    case null
    /// `YES` / `TRUE` / `NO` / `FALSE`, or a `Bool` argument.
    case bool(Bool)
    /// An integer literal (decimal, hex `0x`, octal `0o`, binary `0b`) or integer argument.
    case int(Int64)
    /// A literal with a fraction or an exponent, or a floating-point argument. Always finite.
    case double(Double)
    /// A `Decimal` argument, or `CAST("1.5", "NSDecimalNumber")`.
    case decimal(Decimal)
    /// A quoted string literal, or a `String` / `Substring` / `Character` argument.
    case string(String)
    /// A `Date` argument, or `CAST(<seconds since 2001-01-01>, "NSDate")`.
    case date(Date)
    /// A `UUID` argument, or `CAST("<uuid>", "NSUUID")`.
    case uuid(UUID)
    /// A `Data` argument, or `CAST("<base64>", "NSData")`.
    case data(Data)
    /// A `URL` argument, or `CAST("<absolute string>", "NSURL")`.
    case url(URL)
    /// An array or set argument, or a `{…}` literal whose members are all constants.
    case array([FormatValue])
}
