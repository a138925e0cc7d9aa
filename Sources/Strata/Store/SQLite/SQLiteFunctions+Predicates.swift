import CSQLite
import Foundation

/// SQL functions that give `#Predicate` nodes Swift's semantics:
///
/// | SQL | Result |
/// |-----|--------|
/// | `strata_character_count(text)` | the number of Swift `Character`s in `text` |
/// | `strata_character_contains(text, other)` | 1 when `other`'s Characters appear in a row in `text` |
/// | `strata_character_beginswith(text, prefix)` | 1 when `text`'s Characters start with `prefix`'s |
/// | `strata_int_add/sub/mul(a, b, min, max)` | the integer result; an error when it leaves `min...max` |
/// | `strata_int_div/rem(a, b, min, max)` | truncating division / remainder; `NULL` when `b` is 0 |
/// | `strata_power(base, exponent)` | `pow(base, exponent)` as a real; `NULL` when it is NaN |
/// | `strata_real_add/sub/mul/div(a, b)` | IEEE double arithmetic; the text `'NaN'` in and out stands for NaN |
/// | `strata_float_add/sub/mul/div(a, b)` | the same, rounded to `Float` as Swift's `Float` arithmetic rounds |
///
/// SQLite's own `+ - *` turn an overflowing integer result into a REAL, where Swift traps: the checked
/// functions fail the statement instead, so a fetch throws rather than matching on a wrong value.
///
/// The Character functions compare as Swift's `Collection.contains(_:)` and `starts(with:)` do: whole
/// Characters only, so "👨" is not found in "👨‍👩‍👧", where Foundation's `range(of:)` (and `strata_contains`)
/// finds it.
extension SQLiteFunctions {
    static func registerPredicateFunctions(on handle: OpaquePointer) throws(SQLiteError) {
        try define(StrataSQLFunction.characterCount, argumentCount: 1, on: handle) {
            arguments throws(StrataFunctionError) in
            .integer(Int64(arguments.text(0).count))
        }
        try define(StrataSQLFunction.characterContains, argumentCount: 2, on: handle) {
            arguments throws(StrataFunctionError) in
            .integer(elementsContain(arguments.text(0), arguments.text(1)) ? 1 : 0)
        }
        try define(StrataSQLFunction.characterBeginsWith, argumentCount: 2, on: handle) {
            arguments throws(StrataFunctionError) in
            .integer(arguments.text(0).starts(with: arguments.text(1)) ? 1 : 0)
        }
        for op in [QueryExpression.ArithmeticOperator.add, .subtract, .multiply, .divide] {
            for single in [false, true] {
                try define(StrataSQLFunction.floatingArithmetic(op, single: single), argumentCount: 2, on: handle) {
                    arguments throws(StrataFunctionError) in
                    StoredArithmetic.floating(op, arguments.real(0), arguments.real(1), single: single)
                }
            }
        }
        try define(StrataSQLFunction.power, argumentCount: 2, on: handle) { arguments throws(StrataFunctionError) in
            StoredArithmetic.power(arguments.double(0), arguments.double(1))
        }
        let operators: [QueryExpression.ArithmeticOperator] = [.add, .subtract, .multiply, .divide, .remainder]
        for op in operators {
            let name = StrataSQLFunction.checkedArithmetic(op)
            try define(name, argumentCount: 4, on: handle) { arguments throws(StrataFunctionError) in
                let left = arguments.int64(0), right = arguments.int64(1)
                let bounds = arguments.int64(2)...max(arguments.int64(2), arguments.int64(3))
                guard let result = try integerResult(op, left, right) else { return .null }
                guard bounds.contains(result) else {
                    throw StrataFunctionError(message: "\(name): \(left) \(op.rawValue) \(right) overflows \(bounds)")
                }
                return .integer(result)
            }
        }
    }

    /// Whether `other`'s elements appear in a row in `base`, through the generic `Collection.contains(_:)` that
    /// `#Predicate`'s `CollectionContainsCollection` evaluates with (not `StringProtocol`'s Foundation overload).
    private static func elementsContain<C: Collection>(_ base: C, _ other: C) -> Bool where C.Element: Equatable {
        base.contains(other)
    }

    /// `nil` for division by zero; throws on `Int64` overflow.
    private static func integerResult(
        _ op: QueryExpression.ArithmeticOperator, _ left: Int64, _ right: Int64
    ) throws(StrataFunctionError) -> Int64? {
        let (result, overflow): (Int64, Bool)
        switch op {
        case .add: (result, overflow) = left.addingReportingOverflow(right)
        case .subtract: (result, overflow) = left.subtractingReportingOverflow(right)
        case .multiply: (result, overflow) = left.multipliedReportingOverflow(by: right)
        case .divide:
            guard right != 0 else { return nil }
            (result, overflow) = left.dividedReportingOverflow(by: right)
        case .remainder:
            guard right != 0 else { return nil }
            (result, overflow) = left.remainderReportingOverflow(dividingBy: right)
        }
        guard !overflow else {
            throw StrataFunctionError(
                message: "\(StrataSQLFunction.checkedArithmetic(op)): \(left) \(op.rawValue) \(right) overflows Int64")
        }
        return result
    }
}
