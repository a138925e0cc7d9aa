import Foundation

extension Aggregate where Value: Comparable {
    /// The groups whose aggregate equals `value`.
    public static func == (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> { lhs.compared(.equal, rhs) }
    /// The groups whose aggregate differs from `value`.
    public static func != (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> { lhs.compared(.notEqual, rhs) }
    /// The groups whose aggregate is less than `value`.
    public static func < (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> { lhs.compared(.less, rhs) }
    /// The groups whose aggregate is at most `value`.
    public static func <= (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> { lhs.compared(.lessOrEqual, rhs) }
    /// The groups whose aggregate is greater than `value`.
    public static func > (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> { lhs.compared(.greater, rhs) }
    /// The groups whose aggregate is at least `value`.
    public static func >= (lhs: Aggregate, rhs: Value) -> AggregatePredicate<T> {
        lhs.compared(.greaterOrEqual, rhs)
    }
}

extension Aggregate {
    // An average, minimum or maximum is optional (nil over no values); it is compared with a wrapped value, and a
    // nil one matches no comparison.

    /// The groups whose aggregate is not `nil` and equals `value`.
    public static func == <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.equal, rhs)
    }
    /// The groups whose aggregate is not `nil` and differs from `value`.
    public static func != <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.notEqual, rhs)
    }
    /// The groups whose aggregate is not `nil` and less than `value`.
    public static func < <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.less, rhs)
    }
    /// The groups whose aggregate is not `nil` and at most `value`.
    public static func <= <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.lessOrEqual, rhs)
    }
    /// The groups whose aggregate is not `nil` and greater than `value`.
    public static func > <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.greater, rhs)
    }
    /// The groups whose aggregate is not `nil` and at least `value`.
    public static func >= <W: Comparable>(lhs: Aggregate, rhs: W) -> AggregatePredicate<T> where Value == W? {
        lhs.compared(.greaterOrEqual, rhs)
    }

    private func compared(_ relation: AggregatePredicate<T>.Relation, _ value: Any) -> AggregatePredicate<T> {
        AggregatePredicate(.comparison(term, relation, value))
    }
}
