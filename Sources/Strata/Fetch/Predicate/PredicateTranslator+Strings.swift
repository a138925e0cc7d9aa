import Foundation

extension PredicateTranslator {
    /// `value` set up to compare as Swift compares what `node` produces: a `String` (optional or not) under the
    /// `swift` collation, because Swift's `==` and `<` treat canonically equivalent strings ("é", "e\u{301}") as
    /// equal while SQLite's byte order doesn't. Other values are returned as they are.
    ///
    /// A collated comparison can't use an ordinary index on the column: that is the price of Swift's answer.
    static func comparedLikeSwift(
        _ value: QueryExpression, producedBy node: Any, against other: QueryExpression? = nil
    ) -> QueryExpression {
        // Comparing with nil needs no collation (and `IS NULL` keeps using indexes).
        guard other != .value(.null), value != .value(.null),
            let expression = PredicateNodeConformances.expression(node)
        else { return value }
        let type = outputType(of: expression)
        return type == String.self || type == String?.self ? .collated(value, .swift) : value
    }

    private static func outputType<E: PredicateExpression>(of _: E) -> Any.Type { E.Output.self }
}
