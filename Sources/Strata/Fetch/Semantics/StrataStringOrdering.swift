/// The string orderings Strata's SQL compare function and collations offer.
package enum StrataStringOrdering: Int64, Sendable, CaseIterable {
    /// Finder-like: case-insensitive, numbers by value ("file2" < "file10").
    case localizedStandard = 0
    /// The current locale's ordering. It changes with the process's locale, so an index
    /// built with it is only valid under the locale that built it: prefer it in `ORDER BY`.
    case localized = 1
    /// Ignoring case.
    case caseInsensitive = 2
    /// Unicode scalar order (canonically equivalent strings are equal).
    case lexical = 3
    /// Swift's own `String` comparison (`<`, `==`): Unicode canonical ordering, so canonically equivalent
    /// strings ("é" and "e\u{301}") are equal. `SortDescriptor(\.title)` and `#Predicate` compare this way
    /// (see `StrataText.swiftOrder`).
    case swift = 4

    /// The SQLite collation name for this ordering, or `nil` for ``lexical`` (use `BINARY`).
    package var collationName: String? {
        switch self {
        case .localizedStandard:
            return "STRATA_LOCALIZED_STANDARD"
        case .localized:
            return "STRATA_LOCALIZED"
        case .caseInsensitive:
            return "STRATA_CASE_INSENSITIVE"
        case .swift:
            return "STRATA_SWIFT"
        case .lexical:
            return nil
        }
    }
}
