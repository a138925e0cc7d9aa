import Foundation

/// One value computed over the models of a group: a count, a sum, an average, a minimum or a maximum, typed by
/// what it gives (`Aggregate<Expense, Int>` for `.sum(\.cents)` over an `Int` attribute).
///
/// Aggregates are the values of an ``AggregateDescriptor``; each maps to one of Core Data's result
/// expressions (`NSExpressionDescription` with `count:`, `sum:`, `average:`, `min:`, `max:`):
///
/// ```swift
/// let descriptor = AggregateDescriptor(
///     groupBy: \Expense.category,
///     aggregates: .count, .sum(\.cents), .maximum(\.date))
/// for group in try context.fetch(descriptor) {
///     let (count, cents, latest) = group.value  // (Int, Int, Date?)
///     print(group.key, count, cents, latest as Any)
/// }
/// ```
///
/// A sum over no values is zero and a count is 0, as Swift's `reduce` gives them; an average, minimum or maximum
/// over no values is `nil`. `nil` attribute values are left out of every aggregate but ``count``.
public struct Aggregate<T: PersistentModel, Value>: @unchecked Sendable {
    // `@unchecked` because of the key path; key paths are immutable.
    package let term: AggregateTerm
    package let read: (AggregateReading) throws -> Value

    package init(
        _ function: AggregateFunction, _ keyPath: AnyKeyPath?, read: @escaping (AggregateReading) throws -> Value
    ) {
        self.term = AggregateTerm(function: function, keyPath: keyPath)
        self.read = read
    }
}

/// What an aggregate computes, store-neutral.
package enum AggregateFunction: Hashable, Sendable {
    /// The number of models.
    case count
    /// The number of non-nil values.
    case countValues
    /// The number of distinct non-nil values.
    case countDistinct
    /// The exact sum of an integer attribute.
    case integerSum
    /// The sum of a floating-point attribute, computed exactly and rounded once.
    case floatingSum
    /// The exact sum of an integer attribute divided by the number of values.
    case integerAverage
    /// The average of a floating-point attribute.
    case floatingAverage
    case minimum
    case maximum
    /// The minimum of a floating-point attribute (NaN only when every value is).
    case floatingMinimum
    /// The maximum of a floating-point attribute (NaN when any value is).
    case floatingMaximum
}

/// An aggregate without its result type: the function and the property it reads (none for
/// ``AggregateFunction/count``).
package struct AggregateTerm: Hashable, @unchecked Sendable {
    package let function: AggregateFunction
    package let keyPath: AggregateOperand?

    package init(function: AggregateFunction, keyPath: AnyKeyPath?) {
        self.function = function
        self.keyPath = keyPath.map { .keyPath($0) }
    }

    package init(function: AggregateFunction, operand: AggregateOperand?) {
        self.function = function
        self.keyPath = operand
    }
}

/// What an aggregate reads or a group key is: a key path of the model, or (written as Core Data writes it) a
/// property name or a dotted path of names through to-one relationships (`merchant.city`).
package enum AggregateOperand: Hashable, @unchecked Sendable {
    // `@unchecked` because of the key path; key paths are immutable.
    case keyPath(AnyKeyPath)
    case name(String)
}
