/// The comparison flags Strata's SQL text functions take as their last argument.
///
/// The raw value is what the SQL passes: `strata_contains(title, ?, 3)` is `[cd]`.
package struct StrataTextOptions: OptionSet, Sendable, Hashable {
    package let rawValue: Int64

    /// Creates options from the integer passed in SQL.
    package init(rawValue: Int64) {
        self.rawValue = rawValue
    }

    /// `[c]`: ignore case.
    package static let caseInsensitive = StrataTextOptions(rawValue: 1)
    /// `[d]`: ignore diacritics.
    package static let diacriticInsensitive = StrataTextOptions(rawValue: 2)

    /// The matching Foundation options (empty for a plain comparison).
    package var compareOptions: String.CompareOptions {
        var options: String.CompareOptions = []
        if contains(.caseInsensitive) {
            options.insert(.caseInsensitive)
        }
        if contains(.diacriticInsensitive) {
            options.insert(.diacriticInsensitive)
        }
        return options
    }
}

/// The string orderings Strata's SQL compare function and collations offer.
package enum StrataStringOrdering: Int64, Sendable, CaseIterable {
    /// Finder-like: case-insensitive, numbers by value ("file2" < "file10").
    case localizedStandard = 0
    /// The current locale's ordering.
    case localized = 1
    /// Ignoring case.
    case caseInsensitive = 2
    /// Unicode scalar order (canonically equivalent strings are equal).
    case lexical = 3

    /// The SQLite collation name for this ordering, or `nil` for ``lexical`` (use `BINARY`).
    package var collationName: String? {
        switch self {
        case .localizedStandard:
            return "STRATA_LOCALIZED_STANDARD"
        case .localized:
            return "STRATA_LOCALIZED"
        case .caseInsensitive:
            return "STRATA_CASE_INSENSITIVE"
        case .lexical:
            return nil
        }
    }
}
