/// One sort key of a query, store-neutral.
package struct QueryOrdering: Hashable, Sendable {
    /// How strings compare.
    package enum Collation: Hashable, Sendable {
        case binary
        case localizedStandard
        case localized
        case caseInsensitive
    }

    package var expression: QueryExpression
    package var ascending: Bool
    package var collation: Collation
}
