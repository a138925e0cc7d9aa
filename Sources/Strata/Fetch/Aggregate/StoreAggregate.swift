/// An aggregate fetch in store-neutral terms, what an ``AggregatePlan`` asks a store for
/// (`PersistentStore.aggregate`): the entity's rows matching `condition`, each reduced to its group keys and the
/// operands of the aggregates, then grouped by the keys.
///
/// ``SelectStatement/aggregate(_:)`` writes it as one statement for every store:
/// `SELECT keys, aggregates FROM (SELECT key AS k…, operand AS v… FROM entity WHERE …) GROUP BY keys ORDER BY …`,
/// with a group condition the grouped select in a derived table filtered by it.
package struct StoreAggregate: Sendable {
    /// One aggregate column of the result, over the columns of the inner select (``keyColumn(_:)``,
    /// ``operandColumn(_:)``).
    package enum Column: Hashable, Sendable {
        /// `count(*)`, or with an operand `count(operand)`: the rows, or the non-null values.
        case count(QueryExpression?)
        /// `count(DISTINCT operand)`.
        case countDistinct(QueryExpression)
        /// An aggregate function the store's writer spells.
        case aggregate(QueryAggregate, QueryExpression)
        /// The sum of an integer operand split in two (see ``AggregatePlan``), `sum(high) * 2^32 + sum(low)`, as a
        /// sort key: exact where it fits `Int64` on every engine, and 0 over no values.
        case integerSumKey(high: QueryExpression, low: QueryExpression)
        /// ``integerSumKey(high:low:)`` divided by `count(operand)`, as a sort key; null over no values.
        case integerAverageKey(high: QueryExpression, low: QueryExpression, operand: QueryExpression)
    }

    package var entity: Schema.Entity
    package var condition: QueryExpression?
    /// The group keys, over the entity's columns (to-one paths as `related`).
    package var keys: [QueryExpression]
    /// The values the aggregates read, over the entity's columns.
    package var operands: [QueryExpression]
    /// The result's aggregate columns, after the keys.
    package var columns: [Column]
    /// Which groups to keep, over ``keyColumn(_:)`` and ``resultColumn(_:)`` names; `nil` for all.
    package var groupCondition: QueryExpression? = nil
    /// The order of the groups, over ``keyColumn(_:)`` and ``resultColumn(_:)`` names.
    package var ordering: [QueryOrdering]
    package var limit: Int?
    package var offset: Int?

    /// The name of group key `index` in the inner select and the result.
    package static func keyColumn(_ index: Int) -> String { "strata_k\(index)" }
    /// The name of operand `index` in the inner select.
    package static func operandColumn(_ index: Int) -> String { "strata_v\(index)" }
    /// The name of aggregate column `index` in the result.
    package static func resultColumn(_ index: Int) -> String { "strata_a\(index)" }
}
