import Foundation

extension StrataText {
    /// The locale decimal text is written and read in, so "1.5" never means "15".
    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The decimal a text column holds, or `nil` when it is not a number.
    package static func decimal(_ text: String) -> Decimal? {
        guard let value = Decimal(string: text, locale: posix), !value.isNaN else { return nil }
        return value
    }

    /// The text Strata stores for a decimal.
    package static func decimalText(_ value: Decimal) -> String {
        value.description
    }

    /// The `STRATA_DECIMAL` ordering: numbers by value, before any text that is not a number,
    /// which sorts lexically after them. Equal numbers written differently ("1.0", "1") are equal.
    package static func compareDecimalText(_ left: String, _ right: String) -> ComparisonResult {
        switch (decimal(left), decimal(right)) {
        case (let leftValue?, let rightValue?):
            if leftValue < rightValue {
                return .orderedAscending
            }
            return leftValue == rightValue ? .orderedSame : .orderedDescending
        case (.some, nil):
            return .orderedAscending
        case (nil, .some):
            return .orderedDescending
        case (nil, nil):
            return left.compare(right, options: .literal)
        }
    }
}
