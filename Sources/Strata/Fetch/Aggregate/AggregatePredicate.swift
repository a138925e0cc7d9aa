import Foundation

/// Which groups of an aggregate fetch to keep, judged by their aggregates: Core Data's `havingPredicate`, SQL's
/// `HAVING`. Made by comparing an ``Aggregate`` with a value, and combined with `&&`, `||` and `!`.
///
/// ```swift
/// var descriptor = AggregateDescriptor(groupBy: \Expense.category, aggregates: .count, .sum(\.cents))
/// descriptor.havingPredicate = .count > 3 && .sum(\Expense.cents) >= 10_000
/// ```
///
/// The store filters the groups before sorting and limiting them, so `fetchLimit` counts the groups kept. A
/// comparison compares what the aggregate gives in Swift: an integer sum exactly, a floating-point NaN as Swift
/// does (unordered, equal to nothing). An average, minimum or maximum that is `nil` (over no values) matches no
/// comparison: the comparison is false, so its negation with `!` keeps the group. The aggregate need not be one
/// of the descriptor's values. Only numbers and dates are compared: a minimum or maximum of text throws
/// `StrataError.invalidAggregate` when fetched.
public struct AggregatePredicate<T: PersistentModel>: @unchecked Sendable {
    // `@unchecked` because of the key paths and the compared values, which are immutable.
    /// How a comparison relates the aggregate to its value.
    package enum Relation: Sendable {
        case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    }

    /// The predicate as a tree.
    package indirect enum Node {
        /// The aggregate `term` related to `value` (of the aggregate's Swift type).
        case comparison(AggregateTerm, Relation, Any)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node)
    }

    package let node: Node

    package init(_ node: Node) {
        self.node = node
    }

    /// The groups both predicates keep.
    public static func && (lhs: AggregatePredicate, rhs: AggregatePredicate) -> AggregatePredicate {
        AggregatePredicate(.and(lhs.node, rhs.node))
    }

    /// The groups either predicate keeps.
    public static func || (lhs: AggregatePredicate, rhs: AggregatePredicate) -> AggregatePredicate {
        AggregatePredicate(.or(lhs.node, rhs.node))
    }

    /// The groups the predicate drops.
    public static prefix func ! (predicate: AggregatePredicate) -> AggregatePredicate {
        AggregatePredicate(.not(predicate.node))
    }
}
