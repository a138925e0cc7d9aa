import Foundation

/// What the store answered for one aggregate of one group, combined from its columns, with the model and property
/// it reads to name in errors.
package struct AggregateReading {
    /// The combined answer.
    package enum Outcome {
        /// A count.
        case count(Int64)
        /// An exact integer sum; `count` values were summed (counted for an average only).
        case integerSum(Int128, count: Int64)
        /// A stored value: a floating-point sum or average, a minimum or a maximum (`.null` over no values).
        case stored(StoredValue)
    }

    package let outcome: Outcome
    package let entity: Schema.Entity
    /// The attribute read (`nil` for a count of models).
    package let property: (any AnyPersistentProperty)?
    /// How errors name the attribute: `category.name` for a to-one path.
    package let propertyName: String

    /// The count.
    package func count() -> Int {
        if case .count(let count) = outcome { return Int(count) }
        return 0
    }

    /// The exact sum as `N`.
    /// - Throws: `StrataError.aggregateOverflow` when it is outside `N`'s range.
    package func integerSum<N: FixedWidthInteger>(_: N.Type) throws -> N {
        guard case .integerSum(let sum, _) = outcome else { return 0 }
        guard let value = N(exactly: sum) else {
            throw StrataError.aggregateOverflow(
                entity: entity.name, property: propertyName, type: "\(N.self)", sum: "\(sum)")
        }
        return value
    }

    /// The exact sum divided by the number of values, rounded once to a `Double` before dividing (as
    /// `Double(sum) / Double(count)` computes it); `nil` over no values.
    package func integerAverage() -> Double? {
        guard case .integerSum(let sum, let count) = outcome, count > 0 else { return nil }
        return Double(sum) / Double(count)
    }

    /// A floating-point answer as `N`; `nil` for SQL's null (no values).
    package func floating<N: BinaryFloatingPoint>(_: N.Type) -> N? {
        guard case .stored(let stored) = outcome else { return nil }
        switch stored {
        case .real(let value): return N(value)
        case .integer(let value): return N(value)
        case .text(let text): return Double(text).map { N($0) } ?? .nan
        case .null, .blob: return nil
        }
    }

    /// A stored value decoded as the attribute's type `V` (a minimum or maximum); `nil` over no values.
    /// - Throws: `StrataError.invalidStoredValue` when the value doesn't decode as `V`.
    package func value<V>(_: V.Type) throws -> V? {
        guard case .stored(let stored) = outcome, stored != .null else { return nil }
        if let decoded = property?.decodeAny(stored), let value = Self.unwrapped(decoded) as? V { return value }
        throw StrataError.invalidStoredValue(entity: entity.name, property: propertyName, found: "\(stored)")
    }

    /// A stored value decoded as the attribute's own type (a minimum or maximum); `nil` over no values.
    /// - Throws: `StrataError.invalidStoredValue` when the value doesn't decode.
    package func anyValue() throws -> Any? {
        guard case .stored(let stored) = outcome, stored != .null else { return nil }
        if let decoded = property?.decodeAny(stored) { return Self.unwrapped(decoded) }
        throw StrataError.invalidStoredValue(entity: entity.name, property: propertyName, found: "\(stored)")
    }

    /// The value inside an optional held in an `Any`, or the value itself.
    private static func unwrapped(_ value: Any) -> Any? {
        guard let optional = value as? any OptionalProtocol else { return value }
        return optional.wrappedValue.flatMap(unwrapped)
    }
}
