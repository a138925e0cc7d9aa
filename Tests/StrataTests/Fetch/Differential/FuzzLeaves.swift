import Foundation
import Strata
@testable import StrataTestFixtures

/// Random leaves and trees over `FuzzRow`, with constants drawn from the same awkward pools as the rows.
struct FuzzTrees<G: RandomNumberGenerator> {
    var generator: G
    /// Whether leaves may read `partner` and `items` (the rows' relationships).
    var relationships = false
    typealias Row = FuzzPredicate.Row

    mutating func tree(depth: Int) -> FuzzPredicate {
        guard depth > 0, number(3) != 0 else { return leaf() }
        switch number(3) {
        case 0: return .and(tree(depth: depth - 1), tree(depth: depth - 1))
        case 1: return .or(tree(depth: depth - 1), tree(depth: depth - 1))
        default: return .not(tree(depth: depth - 1))
        }
    }

    mutating func leaf() -> FuzzPredicate {
        if relationships, number(4) == 0 { return relationshipLeaf() }
        return switch number(24) {
        case 20: integerArithmetic()
        case 21: conditional()
        case 22: flatMapped()
        case 23: optionalDouble()
        case 0, 1: ordered("d", \.d, FuzzPools.doubles)
        case 2: ordered("f", \.f, FuzzPools.floats)
        case 3: ordered("i", \.i, FuzzPools.ints)
        case 4: ordered("u", \.u, FuzzPools.unsigned)
        case 5, 6: ordered("s", \.s, FuzzPools.strings)
        case 7: ordered("date", \.date, FuzzPools.dates)
        case 8: ordered("dec", \.dec, FuzzPools.decimals)
        case 9: equated("o", \.o, FuzzPools.optionalInts)
        case 10: equated("t", \.t, FuzzPools.optionalStrings)
        case 11: equated("uuid", \.uuid, FuzzPools.uuids)
        case 12: equated("data", \.data, FuzzPools.datas)
        case 13: equated("flag", \.flag, [true, false])
        case 14: equated("kind", \.kind, FuzzKind.allCases)
        case 15: itself()
        case 16, 17: stringOperation()
        case 18: coalesced()
        default: arithmetic()
        }
    }

    mutating func number(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }

    private mutating func ordered<V: Comparable & Codable & Sendable>(
        _ name: String, _ keyPath: KeyPath<FuzzRow, V> & Sendable, _ pool: [V]
    ) -> FuzzPredicate {
        let constant = FuzzPools.pick(pool, &generator)
        let op = number(6)
        return .leaf("$0.\(name) \(FuzzRelation.symbols[op]) \(Self.text(constant))") { row in
            FuzzRelation.compare(
                PredicateExpressions.KeyPath(root: row, keyPath: keyPath), PredicateExpressions.Value(constant), op)
        }
    }

    private mutating func equated<V: Equatable & Codable & Sendable>(
        _ name: String, _ keyPath: KeyPath<FuzzRow, V> & Sendable, _ pool: [V]
    ) -> FuzzPredicate {
        let constant = FuzzPools.pick(pool, &generator)
        let op = number(2)
        return .leaf("$0.\(name) \(FuzzRelation.symbols[op]) \(Self.text(constant))") { row in
            FuzzRelation.equate(
                PredicateExpressions.KeyPath(root: row, keyPath: keyPath), PredicateExpressions.Value(constant), op)
        }
    }

    /// `$0.x op $0.x`: NaN is unequal to and unordered with itself.
    private mutating func itself() -> FuzzPredicate {
        let op = number(6)
        let symbol = FuzzRelation.symbols[op]
        switch number(3) {
        case 0:
            return .leaf("$0.d \(symbol) $0.d") { row in
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.d),
                    PredicateExpressions.KeyPath(root: row, keyPath: \.d), op)
            }
        case 1:
            return .leaf("$0.f \(symbol) $0.f") { row in
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.f),
                    PredicateExpressions.KeyPath(root: row, keyPath: \.f), op)
            }
        default:
            return .leaf("$0.s \(symbol) $0.s") { row in
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(root: row, keyPath: \.s),
                    PredicateExpressions.KeyPath(root: row, keyPath: \.s), op)
            }
        }
    }

    private mutating func stringOperation() -> FuzzPredicate {
        let word = FuzzPools.pick(FuzzPools.strings, &generator)
        let quoted = word.debugDescription
        switch number(6) {
        case 0:
            return .leaf("$0.s.contains(\(quoted))") { row in
                PredicateExpressions.CollectionContainsCollection(
                    base: PredicateExpressions.KeyPath(root: row, keyPath: \.s), other: PredicateExpressions.Value(word)
                )
            }
        case 1:
            return .leaf("$0.s.starts(with: \(quoted))") { row in
                PredicateExpressions.SequenceStartsWith(
                    base: PredicateExpressions.KeyPath(root: row, keyPath: \.s),
                    prefix: PredicateExpressions.Value(word))
            }
        case 2:
            return .leaf("$0.s.localizedStandardContains(\(quoted))") { row in
                PredicateExpressions.StringLocalizedStandardContains(
                    root: PredicateExpressions.KeyPath(root: row, keyPath: \.s), other: PredicateExpressions.Value(word)
                )
            }
        case 3:
            let count = number(6)
            let op = number(6)
            return .leaf("$0.s.count \(FuzzRelation.symbols[op]) \(count)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.KeyPath(
                        root: PredicateExpressions.KeyPath(root: row, keyPath: \.s), keyPath: \.count),
                    PredicateExpressions.Value(count), op)
            }
        case 4:
            return .leaf("($0.t ?? \"\").contains(\(quoted))") { row in
                PredicateExpressions.CollectionContainsCollection(
                    base: PredicateExpressions.NilCoalesce(
                        lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.t), rhs: PredicateExpressions.Value("")),
                    other: PredicateExpressions.Value(word))
            }
        default:
            let op = number(2)
            return .leaf("$0.s.caseInsensitiveCompare(\(quoted)) \(FuzzRelation.symbols[op]) .orderedSame") { row in
                FuzzRelation.equate(
                    PredicateExpressions.StringCaseInsensitiveCompare(
                        root: PredicateExpressions.KeyPath(root: row, keyPath: \.s),
                        other: PredicateExpressions.Value(word)),
                    PredicateExpressions.Value(ComparisonResult.orderedSame), op)
            }
        }
    }

    /// `($0.o ?? c) op k`.
    private mutating func coalesced() -> FuzzPredicate {
        let fallback = FuzzPools.pick(FuzzPools.ints, &generator)
        let bound = FuzzPools.pick(FuzzPools.ints, &generator)
        let op = number(6)
        return .leaf("($0.o ?? \(fallback)) \(FuzzRelation.symbols[op]) \(bound)") { row in
            FuzzRelation.compare(
                PredicateExpressions.NilCoalesce(
                    lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.o),
                    rhs: PredicateExpressions.Value(fallback)),
                PredicateExpressions.Value(bound), op)
        }
    }

    /// `($0.d ⊕ c) op k` on `Double` and `Float` (integer arithmetic traps in Swift at the pools' edges, so it
    /// isn't generated).
    private mutating func arithmetic() -> FuzzPredicate {
        let operand = FuzzPools.pick(FuzzPools.doubles, &generator)
        let bound = FuzzPools.pick(FuzzPools.doubles, &generator)
        let op = number(6)
        let symbol = FuzzRelation.symbols[op]
        switch number(6) {
        case 0, 1, 2:
            let operation: PredicateExpressions.ArithmeticOperator = [.add, .subtract, .multiply][number(3)]
            return .leaf("($0.d \(operation) \(operand)) \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.Arithmetic(
                        lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.d),
                        rhs: PredicateExpressions.Value(operand), op: operation),
                    PredicateExpressions.Value(bound), op)
            }
        case 3:
            return .leaf("($0.d / \(operand)) \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.FloatDivision(
                        lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.d),
                        rhs: PredicateExpressions.Value(operand)),
                    PredicateExpressions.Value(bound), op)
            }
        case 4:
            return .leaf("-$0.d \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.UnaryMinus(PredicateExpressions.KeyPath(root: row, keyPath: \.d)),
                    PredicateExpressions.Value(bound), op)
            }
        default:
            let operand = FuzzPools.pick(FuzzPools.floats, &generator)
            let bound = FuzzPools.pick(FuzzPools.floats, &generator)
            let operation: PredicateExpressions.ArithmeticOperator = [.add, .subtract, .multiply][number(3)]
            return .leaf("($0.f \(operation) \(operand) as Float) \(symbol) \(bound)") { row in
                FuzzRelation.compare(
                    PredicateExpressions.Arithmetic(
                        lhs: PredicateExpressions.KeyPath(root: row, keyPath: \.f),
                        rhs: PredicateExpressions.Value(operand), op: operation),
                    PredicateExpressions.Value(bound), op)
            }
        }
    }

    static func text(_ value: Any) -> String {
        if let string = value as? String { return string.debugDescription }
        if let data = value as? Data { return "Data(\(Array(data)))" }
        return String(describing: value)
    }
}
