/// One sort key of a query, store-neutral.
package struct QueryOrdering: Hashable, Sendable {
    /// How strings compare.
    package enum Collation: Hashable, Sendable {
        /// Byte order (SQLite's `BINARY`): fast, and what indexes use, but unlike Swift for strings that are
        /// canonically equivalent yet encoded differently.
        case binary
        /// Swift's `String` comparison, exactly as `<` and `==` compare.
        case swift
        case localizedStandard
        case localized
        case caseInsensitive
    }

    package var expression: QueryExpression
    package var ascending: Bool
    package var collation: Collation
}
