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
