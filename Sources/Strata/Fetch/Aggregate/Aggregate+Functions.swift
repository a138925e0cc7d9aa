import Foundation

extension Aggregate where Value == Int {
    /// The number of models in the group (Core Data's `count:` of the evaluated object).
    public static var count: Aggregate { Aggregate(.count, nil) { $0.count() } }

    /// The number of models in the group whose `keyPath` is not `nil`: an optional attribute, or a to-one
    /// relationship (`.count(\.author)`, the books that have an author).
    public static func count<P>(_ keyPath: KeyPath<T, P?>) -> Aggregate {
        Aggregate(.countValues, keyPath) { $0.count() }
    }

    /// The number of distinct non-nil values of `keyPath` in the group: of an attribute (strings are distinct when
    /// their stored UTF-8 bytes differ) or a to-one relationship (`.countDistinct(\.author)`, the authors of the
    /// group's books).
    public static func countDistinct<P: Hashable>(_ keyPath: KeyPath<T, P>) -> Aggregate {
        Aggregate(.countDistinct, keyPath) { $0.count() }
    }
}

extension Aggregate where Value: FixedWidthInteger {
    /// The sum of an integer attribute, exact whatever the order of the models: zero over none.
    ///
    /// - Throws: (when fetched) `StrataError.aggregateOverflow` when the sum is outside `Value`'s range, where
    ///   Swift's `+` would trap; nothing wraps.
    public static func sum(_ keyPath: KeyPath<T, Value>) -> Aggregate {
        Aggregate(.integerSum, keyPath) { try $0.integerSum(Value.self) }
    }

    /// The sum of the non-nil values of an optional integer attribute: zero over none.
    ///
    /// - Throws: (when fetched) `StrataError.aggregateOverflow` when the sum is outside `Value`'s range.
    public static func sum(_ keyPath: KeyPath<T, Value?>) -> Aggregate {
        Aggregate(.integerSum, keyPath) { try $0.integerSum(Value.self) }
    }
}

extension Aggregate where Value: BinaryFloatingPoint {
    /// The sum of a floating-point attribute, computed exactly and rounded once, so the order of the models
    /// doesn't matter: NaN when any value is NaN, an infinity past the finite range; zero over none.
    public static func sum(_ keyPath: KeyPath<T, Value>) -> Aggregate {
        Aggregate(.floatingSum, keyPath) { $0.floating(Value.self) ?? 0 }
    }

    /// The sum of the non-nil values of an optional floating-point attribute, computed as for a non-optional one.
    public static func sum(_ keyPath: KeyPath<T, Value?>) -> Aggregate {
        Aggregate(.floatingSum, keyPath) { $0.floating(Value.self) ?? 0 }
    }
}

extension Aggregate where Value == Double? {
    /// The average of an integer attribute: its exact sum, as a `Double`, divided by the number of models;
    /// `nil` over none.
    public static func average<N: FixedWidthInteger>(_ keyPath: KeyPath<T, N>) -> Aggregate {
        Aggregate(.integerAverage, keyPath) { $0.integerAverage() }
    }

    /// The average of the non-nil values of an optional integer attribute; `nil` when there are none.
    public static func average<N: FixedWidthInteger>(_ keyPath: KeyPath<T, N?>) -> Aggregate {
        Aggregate(.integerAverage, keyPath) { $0.integerAverage() }
    }

    /// The average of a floating-point attribute, its sum computed exactly; `nil` over no models.
    public static func average<N: BinaryFloatingPoint>(_ keyPath: KeyPath<T, N>) -> Aggregate {
        Aggregate(.floatingAverage, keyPath) { $0.floating(Double.self) }
    }

    /// The average of the non-nil values of an optional floating-point attribute; `nil` when there are none.
    public static func average<N: BinaryFloatingPoint>(_ keyPath: KeyPath<T, N?>) -> Aggregate {
        Aggregate(.floatingAverage, keyPath) { $0.floating(Double.self) }
    }
}

extension Aggregate {
    /// The smallest value of an attribute (a number, a date, a string); `nil` over no models.
    ///
    /// Strings compare by their stored UTF-8 bytes, which is Swift's order for text in Unicode's NFC form; a
    /// floating-point attribute's minimum is NaN only when every value is NaN.
    public static func minimum<P: Comparable>(_ keyPath: KeyPath<T, P>) -> Aggregate where Value == P? {
        Aggregate(Self.isFloating(P.self) ? .floatingMinimum : .minimum, keyPath) { try $0.value(P.self) }
    }

    /// The smallest non-nil value of an optional attribute; `nil` when there is none.
    public static func minimum<P: Comparable>(_ keyPath: KeyPath<T, P?>) -> Aggregate where Value == P? {
        Aggregate(Self.isFloating(P.self) ? .floatingMinimum : .minimum, keyPath) { try $0.value(P.self) }
    }

    /// The largest value of an attribute (a number, a date, a string); `nil` over no models.
    ///
    /// Strings compare by their stored UTF-8 bytes, as for the minimum; a floating-point attribute's
    /// maximum is NaN when any value is NaN.
    public static func maximum<P: Comparable>(_ keyPath: KeyPath<T, P>) -> Aggregate where Value == P? {
        Aggregate(Self.isFloating(P.self) ? .floatingMaximum : .maximum, keyPath) { try $0.value(P.self) }
    }

    /// The largest non-nil value of an optional attribute; `nil` when there is none.
    public static func maximum<P: Comparable>(_ keyPath: KeyPath<T, P?>) -> Aggregate where Value == P? {
        Aggregate(Self.isFloating(P.self) ? .floatingMaximum : .maximum, keyPath) { try $0.value(P.self) }
    }

    private static func isFloating(_ type: Any.Type) -> Bool {
        type is any BinaryFloatingPoint.Type
    }
}
