import Foundation

/// Arithmetic with Swift's results in the stored form: Strata's SQL functions and the in-memory query evaluator
/// both compute through these, so a query gives the same value in SQL as over unsaved models.
package enum StoredArithmetic {
    /// `base` raised to `exponent`, as `strata_power` and the in-memory evaluator compute it: a real,
    /// `NULL` where the result is not a number (`(-8) ** 0.5`), as SQLite stores NaN.
    package static func power(_ base: Double, _ exponent: Double) -> StoredValue {
        let result = Foundation.pow(base, exponent)
        return result.isNaN ? .null : .real(result)
    }

    /// `left op right` in double precision as Swift computes it (`x / 0` is an infinity, `∞ - ∞` is NaN), with
    /// NaN as the store keeps it: the text `'NaN'`, as `strata_real_*` and the in-memory evaluator compute it.
    /// With `single` the result is rounded to `Float`, which gives exactly Swift's `Float` result for `Float`
    /// operands (double precision holds every such sum, difference, product and quotient before rounding).
    package static func floating(
        _ op: QueryExpression.ArithmeticOperator, _ left: Double, _ right: Double, single: Bool
    ) -> StoredValue {
        let result =
            switch op {
            case .add: left + right
            case .subtract: left - right
            case .multiply: left * right
            case .divide, .remainder: left / right
            }
        return single ? Double(Float(result)).storedValue : result.storedValue
    }

    /// The stored form of a floating-point sum: NaN as the text `'NaN'`, `NULL` over no values.
    package static func floatingSum(_ words: UnsafeMutableBufferPointer<UInt64>, average: Bool) -> StoredValue {
        let count = FloatingSum.count(words)
        guard count > 0 else { return .null }
        let total = FloatingSum.total(words)
        return (average ? total / Double(count) : total).storedValue
    }
}
