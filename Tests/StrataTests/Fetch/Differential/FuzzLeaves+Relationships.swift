import Foundation
import Strata
@testable import StrataTestFixtures

/// Leaves across relationships: optional chaining through the to-one `partner` (one and two hops), `??` and
/// `flatMap` over it, and `contains(where:)`, `allSatisfy`, `filter(…).count`, `filter(…).isEmpty`, `count` and
/// `isEmpty` over the to-many `items`.
extension FuzzTrees {
    typealias Item = FuzzRelated.Item

    mutating func relationshipLeaf() -> FuzzPredicate {
        let op = number(6)
        let symbol = FuzzRelation.symbols[op]
        switch number(8) {
        case 0:
            let fallback = FuzzPools.pick(FuzzPools.doubles, &generator)
            let bound = FuzzPools.pick(FuzzPools.doubles, &generator)
            return .leaf("($0.partner?.weight ?? \(fallback)) \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.NilCoalesce(
                        lhs: FuzzRelated.partner(row, \.weight), rhs: PredicateExpressions.Value(fallback)),
                    PredicateExpressions.Value(bound), op)
            }
        case 1:
            let label = FuzzPools.pick(FuzzPools.optionalStrings, &generator)
            return .leaf("$0.partner?.label \(FuzzRelation.symbols[op % 2]) \(label.map(\.debugDescription) ?? "nil")")
            { row in
                FuzzRelation.equate(FuzzRelated.partner(row, \.label), PredicateExpressions.Value(label), op % 2)
            }
        case 2:
            return .leaf("$0.partner \(FuzzRelation.symbols[op % 2]) nil") { row in
                FuzzRelation.equate(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.partner),
                    PredicateExpressions.NilLiteral<FuzzItem>(), op % 2)
            }
        case 3:
            let serial: Int? = [nil, 0, 1, 5][number(4)]
            return .leaf("$0.partner?.holder?.serial \(FuzzRelation.symbols[op % 2]) \(String(describing: serial))") {
                row in
                let holder = PredicateExpressions.OptionalFlatMap(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.partner)
                ) { item in
                    PredicateExpressions.KeyPath(root: item, keyPath: \.holder)
                }
                let reached = PredicateExpressions.OptionalFlatMap(holder) { holder in
                    PredicateExpressions.KeyPath(root: holder, keyPath: \.serial)
                }
                return FuzzRelation.equate(reached, PredicateExpressions.Value(serial), op % 2)
            }
        case 4:
            let pivot = FuzzPools.pick([0, 1, 7, 42], &generator)
            let expected: Bool? = [true, false, nil][number(3)]
            return .leaf(
                "$0.partner.flatMap { $0.n > \(pivot) } \(FuzzRelation.symbols[op % 2]) \(String(describing: expected))"
            ) { row in
                FuzzRelation.equate(
                    PredicateExpressions.OptionalFlatMap(PredicateExpressions.KeyPath(root: row, keyPath: \.partner)) {
                        item in
                        PredicateExpressions.Comparison(
                            lhs: PredicateExpressions.KeyPath(root: item, keyPath: \.n),
                            rhs: PredicateExpressions.Value(pivot), op: .greaterThan)
                    },
                    PredicateExpressions.Value(expected), op % 2)
            }
        case 5:
            let bound = number(4)
            if number(2) == 0 {
                return .leaf("$0.items.isEmpty") { row in
                    PredicateExpressions.KeyPath(
                        root: PredicateExpressions.KeyPath(root: row, keyPath: \.items), keyPath: \.isEmpty)
                }
            }
            return .leaf("$0.items.count \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(
                        root: PredicateExpressions.KeyPath(root: row, keyPath: \.items), keyPath: \.count),
                    PredicateExpressions.Value(bound), op)
            }
        default:
            return quantifiedLeaf()
        }
    }

    /// `contains(where:)`, `allSatisfy`, `filter(…).count op k` or `filter(…).isEmpty` over `items`, with a test
    /// on each item's `weight`, `n`, `label` or `note`.
    private mutating func quantifiedLeaf() -> FuzzPredicate {
        let form = number(4)
        let bound = number(3)
        let countOp = number(6)
        let order = number(4)
        let comparison: PredicateExpressions.ComparisonOperator = [
            .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
        ][order]
        let shape = [
            "contains { %@ }", "allSatisfy { %@ }", "filter { %@ }.count \(FuzzRelation.symbols[countOp]) \(bound)",
            "filter { %@ }.isEmpty",
        ][form]
        func leaf<T: StandardPredicateExpression<Bool>>(
            _ test: String, _ make: @escaping @Sendable (Item) -> T
        ) -> FuzzPredicate {
            .leaf("$0.items." + shape.replacingOccurrences(of: "%@", with: test)) { row in
                FuzzRelated.quantified(
                    form, PredicateExpressions.KeyPath(root: row, keyPath: \.items), countOp: countOp, bound: bound,
                    make)
            }
        }
        switch number(4) {
        case 0:
            let weight = FuzzPools.pick(FuzzPools.doubles, &generator)
            return leaf("$0.weight \(FuzzRelation.symbols[order + 2]) \(weight)") { item in
                PredicateExpressions.Comparison(
                    lhs: PredicateExpressions.KeyPath(root: item, keyPath: \.weight),
                    rhs: PredicateExpressions.Value(weight), op: comparison)
            }
        case 1:
            let n = FuzzPools.pick([0, 1, 7, 42, Int.max], &generator)
            return leaf("$0.n == \(n)") { item in
                PredicateExpressions.Equal(
                    lhs: PredicateExpressions.KeyPath(root: item, keyPath: \.n), rhs: PredicateExpressions.Value(n))
            }
        case 2:
            let word = FuzzPools.pick(FuzzPools.strings, &generator)
            return leaf("$0.label.contains(\(word.debugDescription))") { item in
                PredicateExpressions.CollectionContainsCollection(
                    base: PredicateExpressions.KeyPath(root: item, keyPath: \.label),
                    other: PredicateExpressions.Value(word))
            }
        default:
            let note = FuzzPools.pick(FuzzPools.optionalStrings, &generator)
            return leaf("$0.note != \(note.map(\.debugDescription) ?? "nil")") { item in
                PredicateExpressions.NotEqual(
                    lhs: PredicateExpressions.KeyPath(root: item, keyPath: \.note),
                    rhs: PredicateExpressions.Value(note))
            }
        }
    }
}

/// Builders for relationship leaves (outside the generic `FuzzTrees`, so the leaves' closures capture no generic type).
enum FuzzRelated {
    typealias Row = FuzzPredicate.Row
    typealias Item = PredicateExpressions.Variable<FuzzItem>

    /// `row.partner?[keyPath: keyPath]`, as `#Predicate` spells optional chaining.
    static func partner<V>(
        _ row: Row, _ keyPath: KeyPath<FuzzItem, V> & Sendable
    )
        -> PredicateExpressions.OptionalFlatMap<
            PredicateExpressions.KeyPath<Row, FuzzItem?>, FuzzItem, PredicateExpressions.KeyPath<Item, V>, V
        >
    {
        PredicateExpressions.OptionalFlatMap(PredicateExpressions.KeyPath(root: row, keyPath: \.partner)) { item in
            PredicateExpressions.KeyPath(root: item, keyPath: keyPath)
        }
    }

    static func quantified<S: StandardPredicateExpression<[FuzzItem]>, T: StandardPredicateExpression<Bool>>(
        _ form: Int, _ items: S, countOp: Int, bound: Int, _ test: @escaping (Item) -> T
    ) -> any StandardPredicateExpression<Bool> {
        switch form {
        case 0: return PredicateExpressions.SequenceContainsWhere(items, builder: test)
        case 1: return PredicateExpressions.SequenceAllSatisfy(items, builder: test)
        case 2:
            let count = PredicateExpressions.KeyPath(root: PredicateExpressions.Filter(items, test), keyPath: \.count)
            return FuzzRelation.compare(count, PredicateExpressions.Value(bound), countOp)
        default:
            return PredicateExpressions.KeyPath(root: PredicateExpressions.Filter(items, test), keyPath: \.isEmpty)
        }
    }
}
