extension String {
    /// The longest text an error description quotes from one source (SQL, a predicate, a pattern).
    package static let errorExcerptLimit = 1_000

    /// The string cut to at most about `limit` characters for an error message: its start and end kept,
    /// the middle replaced by a note of how many characters were left out. Shorter strings are unchanged.
    ///
    /// ```swift
    /// String(repeating: "a", count: 5_000).elided(limit: 20)
    /// // "aaaaaaaaaa … (4980 characters left out) … aaaaaaaaaa"
    /// ```
    package func elided(limit: Int = errorExcerptLimit) -> String {
        // Counting Characters walks the whole string; bytes bound it cheaply first.
        guard utf8.count > limit, count > limit else { return self }
        let kept = Swift.max(limit / 2, 1)
        let left = count - 2 * kept
        return String(prefix(kept)) + " … (\(left) characters left out) … " + String(suffix(kept))
    }
}
