import Foundation
import Strata
@testable import StrataTestFixtures

/// Leaves beyond comparisons: integer arithmetic at the edges, conditionals, `flatMap`, and optional `Double`s
/// holding NaN.
extension FuzzTrees {
    /// `($0.i ⊕ c) op k` and `-$0.i op k` on `Int`: `evaluate` traps on overflow, where the store must throw.
    mutating func integerArithmetic() -> FuzzPredicate {
        let operand = FuzzPools.pick(FuzzPools.ints, &generator)
        let bound = FuzzPools.pick(FuzzPools.ints, &generator)
        let op = number(6)
        let symbol = FuzzRelation.symbols[op]
        guard number(4) != 0 else {
            return .checked(
                "-$0.i \(symbol) \(bound)",
                { row in
                    FuzzRelation.compare(
                        PredicateExpressions.UnaryMinus(PredicateExpressions.KeyPath(root: row, keyPath: \.i)),
                        PredicateExpressions.Value(bound), op)
                }, traps: { $0.i == .min })
        }
        let operation: PredicateExpressions.ArithmeticOperator = [.add, .subtract, .multiply][number(3)]
        return .checked(
            "($0.i \(operation) \(operand)) \(symbol) \(bound)",
            { row in
                FuzzRelation.compare(
                    PredicateExpressions.Arithmetic(
                        lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.i),
                        rhs: PredicateExpressions.Value(operand), op: operation),
                    PredicateExpressions.Value(bound), op)
            },
            traps: { row in
                switch operation {
                case .add: row.i.addingReportingOverflow(operand).overflow
                case .subtract: row.i.subtractingReportingOverflow(operand).overflow
                case .multiply: row.i.multipliedReportingOverflow(by: operand).overflow
                }
            })
    }

    /// `($0.flag ? $0.d : c) op k` and `(($0.i op c) ? $0.s : w) op v`.
    mutating func conditional() -> FuzzPredicate {
        let op = number(6)
        let symbol = FuzzRelation.symbols[op]
        if number(2) == 0 {
            let fallback = FuzzPools.pick(FuzzPools.doubles, &generator)
            let bound = FuzzPools.pick(FuzzPools.doubles, &generator)
            return .leaf("($0.flag ? $0.d : \(fallback)) \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.Conditional(
                        test: PredicateExpressions.KeyPath(root: row, keyPath: \.flag),
                        trueBranch: PredicateExpressions.KeyPath(root: row, keyPath: \.d),
                        falseBranch: PredicateExpressions.Value(fallback)),
                    PredicateExpressions.Value(bound), op)
            }
        }
        let test = number(6)
        let pivot = FuzzPools.pick(FuzzPools.ints, &generator)
        let fallback = FuzzPools.pick(FuzzPools.strings, &generator)
        let bound = FuzzPools.pick(FuzzPools.strings, &generator)
        return .leaf(
            "(($0.i \(FuzzRelation.symbols[test]) \(pivot)) ? $0.s : \(fallback.debugDescription)) \(symbol) \(bound.debugDescription)"
        ) { row in
            func branch<T: StandardPredicateExpression<Bool>>(_ condition: T) -> any StandardPredicateExpression<Bool> {
                FuzzRelation.compare(
                    PredicateExpressions.Conditional(
                        test: condition, trueBranch: PredicateExpressions.KeyPath(root: row, keyPath: \.s),
                        falseBranch: PredicateExpressions.Value(fallback)),
                    PredicateExpressions.Value(bound), op)
            }
            return branch(
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.i), PredicateExpressions.Value(pivot), test))
        }
    }

    /// `($0.t.flatMap { $0.count } ?? -1) op k` and `$0.t.flatMap { $0.starts(with: w) } == b`.
    mutating func flatMapped() -> FuzzPredicate {
        let op = number(6)
        if number(2) == 0 {
            let bound = number(5)
            return .leaf("($0.t.flatMap { $0.count } ?? -1) \(FuzzRelation.symbols[op]) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.NilCoalesce(
                        lhs: PredicateExpressions.OptionalFlatMap(PredicateExpressions.KeyPath(root: row, keyPath: \.t))
                        { text in
                            PredicateExpressions.KeyPath(root: text, keyPath: \.count)
                        },
                        rhs: PredicateExpressions.Value(-1)),
                    PredicateExpressions.Value(bound), op)
            }
        }
        let prefix = FuzzPools.pick(FuzzPools.strings, &generator)
        let expected: Bool? = [true, false, nil][number(3)]
        return .leaf(
            "$0.t.flatMap { $0.starts(with: \(prefix.debugDescription)) } \(FuzzRelation.symbols[op % 2]) \(String(describing: expected))"
        ) { row in
            FuzzRelation.equate(
                PredicateExpressions.OptionalFlatMap(PredicateExpressions.KeyPath(root: row, keyPath: \.t)) { text in
                    PredicateExpressions.SequenceStartsWith(base: text, prefix: PredicateExpressions.Value(prefix))
                },
                PredicateExpressions.Value(expected), op % 2)
        }
    }

    /// `$0.od == c` with NaN and nil constants, and `($0.od ?? c) op k`.
    mutating func optionalDouble() -> FuzzPredicate {
        let op = number(6)
        if number(2) == 0 {
            let constant = FuzzPools.pick(FuzzPools.optionalDoubles, &generator)
            return .leaf("$0.od \(FuzzRelation.symbols[op % 2]) \(String(describing: constant))") { row in
                FuzzRelation.equate(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.od), PredicateExpressions.Value(constant), op % 2
                )
            }
        }
        let fallback = FuzzPools.pick(FuzzPools.doubles, &generator)
        let bound = FuzzPools.pick(FuzzPools.doubles, &generator)
        return .leaf("($0.od ?? \(fallback)) \(FuzzRelation.symbols[op]) \(bound)") { row in
            FuzzRelation.compare(
                PredicateExpressions.NilCoalesce(
                    lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.od),
                    rhs: PredicateExpressions.Value(fallback)),
                PredicateExpressions.Value(bound), op)
        }
    }
}
