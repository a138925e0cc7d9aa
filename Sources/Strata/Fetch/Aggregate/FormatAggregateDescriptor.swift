import Foundation

/// An aggregate fetch written as Core Data writes a dictionary fetch, with property names and result expressions
/// in strings, for code ported from Core Data; it runs on the same engine as ``AggregateDescriptor``.
///
/// ```swift
/// var descriptor = FormatAggregateDescriptor<Expense>(
///     propertiesToFetch: ["category", "@sum.cents", "@count"],
///     propertiesToGroupBy: ["category"])
/// descriptor.predicate = FormatPredicate(format: "date >= %@", startOfMonth)
/// descriptor.havingPredicate = FormatPredicate(format: "@sum.cents > %d", 10_000)
/// descriptor.sortDescriptors = [FormatSortDescriptor(key: "@sum.cents", ascending: false)]
/// for row in try context.fetch(descriptor) {
///     print(row["category"]?.stringValue ?? "-", row["@sum.cents"]?.intValue ?? 0)
/// }
/// ```
///
/// An entry of ``propertiesToFetch`` is a property name (`category`, or `merchant.city` through to-one
/// relationships), which must also be in ``propertiesToGroupBy`` as Core Data requires, or a result expression:
/// `@count` (the models), `@sum.x`, `@avg.x`, `@min.x`, `@max.x`, or Core Data's function spelling `sum:(x)`,
/// `average:(x)`, `min:(x)`, `max:(x)`, `count:(x)` (the non-nil values). Each group arrives as an
/// ``AggregateDictionary`` keyed by those strings, its values typed as ``AggregateValue``. The aggregates follow
/// ``Aggregate``'s rules: exact sums, an integer sum outside `Int` an error, `nil` left out.
///
/// A name that isn't a stored property, a `@sum` or `@avg` of an attribute that isn't a number, or a path through a
/// to-many relationship throws ``StrataError/invalidAggregate(entity:property:reason:)`` naming the model and the
/// property when fetched.
public struct FormatAggregateDescriptor<T: PersistentModel>: Sendable, Hashable {
    /// Which models to total, in Core Data's format-string language; `nil` for all.
    public var predicate: FormatPredicate?
    /// The group keys and result expressions each row holds, and the names it holds them under.
    public var propertiesToFetch: [String]
    /// The names of the properties the models are grouped by.
    public var propertiesToGroupBy: [String]
    /// Which groups to keep: comparisons of result expressions with values (`@sum.cents > 100 AND @count >= 2`),
    /// combined with `AND`, `OR` and `NOT`.
    public var havingPredicate: FormatPredicate?
    /// The order of the rows, by a property of ``propertiesToGroupBy`` or a result expression
    /// (`FormatSortDescriptor(key: "@sum.cents", ascending: false)`); rows tied on every key come in key order.
    public var sortDescriptors: [FormatSortDescriptor]
    /// The most rows to return; `nil` for no limit.
    public var fetchLimit: Int?
    /// How many rows to skip first; `nil` for none.
    public var fetchOffset: Int?

    /// Creates a dictionary fetch of `propertiesToFetch`, grouped by `propertiesToGroupBy`.
    public init(
        predicate: FormatPredicate? = nil, propertiesToFetch: [String], propertiesToGroupBy: [String] = [],
        sortDescriptors: [FormatSortDescriptor] = []
    ) {
        self.predicate = predicate
        self.propertiesToFetch = propertiesToFetch
        self.propertiesToGroupBy = propertiesToGroupBy
        self.sortDescriptors = sortDescriptors
    }
}
