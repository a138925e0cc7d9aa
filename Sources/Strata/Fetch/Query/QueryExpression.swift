/// A store-neutral query condition or value, produced from a `#Predicate` (or a format string) and spelled as SQL
/// by a dialect. The tree knows entities and properties, never SQL text.
///
/// A `.column` names a column of the entity in scope: the fetched entity at the top, the destination inside
/// `related`, `exists`, `relatedCount` and `relatedAggregate`.
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
    /// Arithmetic on two numbers. With `bounds` the operands are integers of a Swift type with that range, and a
    /// result outside it fails the query (Swift traps there) instead of silently widening.
    case arithmetic(ArithmeticOperator, QueryExpression, QueryExpression, bounds: ClosedRange<Int64>?)
    /// A function the dialect spells.
    case function(QueryFunction, [QueryExpression])
    /// Whether a value is null.
    case isNull(QueryExpression)
    /// Whether a value equals one of a list (never true for null; test `isNull` for that).
    case `in`(QueryExpression, [QueryExpression])
    /// Whether `lower <= value <= upper`.
    case between(QueryExpression, lower: QueryExpression, upper: QueryExpression)
    /// `then` where `when` holds, otherwise `else`.
    case `case`(when: QueryExpression, then: QueryExpression, else: QueryExpression)
    /// A text value compared under a collation by the comparison, `IN` or `BETWEEN` it is the left operand of.
    case collated(QueryExpression, QueryOrdering.Collation)
    /// An expression evaluated in the scope of the entity reached through a chain of to-one relationships
    /// (`author.name`); null when any hop is nil. Columns inside refer to the last destination's table.
    case related(RelatedPath, QueryExpression)
    /// Whether a to-many relationship has a row (satisfying the query's condition, if any).
    case exists(RelatedQuery)
    /// The number of rows of a to-many relationship (satisfying the query's condition, if any).
    case relatedCount(RelatedQuery)
    /// An aggregate of an expression in the destination's scope over the rows of a to-many relationship;
    /// null over no rows.
    case relatedAggregate(QueryAggregate, RelatedQuery, QueryExpression)

    /// An ordering comparison operator.
    package enum ComparisonOperator: String, Hashable, Sendable {
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
    }

    /// An arithmetic operator.
    package enum ArithmeticOperator: String, Hashable, Sendable {
        case add = "+"
        case subtract = "-"
        case multiply = "*"
        /// Integer division truncates toward zero, as in Swift; dividing by zero gives null.
        case divide = "/"
        /// The remainder takes the dividend's sign, as in Swift; by zero gives null.
        case remainder = "%"
    }
}
