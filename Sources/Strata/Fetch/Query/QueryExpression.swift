/// A store-neutral query condition or value, produced from a `#Predicate` (or a format string) and spelled as SQL
/// by a dialect. The tree knows entities and properties, never SQL text.
package indirect enum QueryExpression: Hashable, Sendable {
    /// A column of the fetched entity.
    case column(String)
    /// A bound value.
    case value(StoredValue)
    /// Null-safe equality (`nil == nil` is true, as in Swift).
    case equal(QueryExpression, QueryExpression)
    /// Null-safe inequality.
    case notEqual(QueryExpression, QueryExpression)
    /// An ordering comparison.
    case compare(QueryExpression, ComparisonOperator, QueryExpression)
    case and([QueryExpression])
    case or([QueryExpression])
    case not(QueryExpression)
    /// A constant truth value.
    case constant(Bool)

    /// An ordering comparison operator.
    package enum ComparisonOperator: String, Hashable, Sendable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }
}
