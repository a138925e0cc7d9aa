import Foundation

/// One sort key of an aggregate fetch: a group key path or an aggregate, ascending or descending.
///
/// ```swift
/// let descriptor = AggregateDescriptor(
///     groupBy: \Expense.category, aggregates: .sum(\.cents),
///     sortBy: [AggregateSortDescriptor(.sum(\Expense.cents), order: .reverse)])
/// ```
///
/// `nil` sorts first ascending, as it does in a `SortDescriptor`; strings sort as Swift's `<` orders them.
public struct AggregateSortDescriptor<T: PersistentModel>: @unchecked Sendable {
    // `@unchecked` because of the key path; key paths are immutable.
    package enum Target: Hashable {
        case groupKey(AggregateOperand)
        case aggregate(AggregateTerm)
    }

    package let target: Target
    /// Whether the groups come in ascending (`.forward`) or descending (`.reverse`) order of the key.
    public var order: SortOrder

    /// Sorts by one of the descriptor's group key paths.
    public init<V>(_ keyPath: KeyPath<T, V>, order: SortOrder = .forward) {
        self.target = .groupKey(.keyPath(keyPath))
        self.order = order
    }

    /// Sorts by an aggregate (which need not be one of the descriptor's).
    public init<V>(_ aggregate: Aggregate<T, V>, order: SortOrder = .forward) {
        self.target = .aggregate(aggregate.term)
        self.order = order
    }

    package init(target: Target, order: SortOrder) {
        self.target = target
        self.order = order
    }
}
