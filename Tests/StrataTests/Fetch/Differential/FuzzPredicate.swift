import Foundation
import Strata
@testable import StrataTestFixtures

/// A random predicate tree over `FuzzRow`, kept as a description plus a builder so a failure prints it and the
/// minimizer can replace subtrees.
indirect enum FuzzPredicate: CustomStringConvertible {
    case leaf(String, @Sendable (PredicateExpressions.Variable<FuzzRow>) -> any StandardPredicateExpression<Bool>)
    /// A leaf whose `evaluate` traps on the rows `traps` accepts (integer overflow): it is never evaluated on them.
    case checked(
        String, @Sendable (PredicateExpressions.Variable<FuzzRow>) -> any StandardPredicateExpression<Bool>,
        traps: @Sendable (FuzzRow) -> Bool)
    case and(FuzzPredicate, FuzzPredicate)
    case or(FuzzPredicate, FuzzPredicate)
    case not(FuzzPredicate)

    typealias Row = PredicateExpressions.Variable<FuzzRow>
    typealias Condition = any StandardPredicateExpression<Bool>

    var description: String {
        switch self {
        case .leaf(let text, _), .checked(let text, _, _): text
        case .and(let left, let right): "(\(left) && \(right))"
        case .or(let left, let right): "(\(left) || \(right))"
        case .not(let wrapped): "!\(wrapped)"
        }
    }

    /// The `Predicate` value, built from `PredicateExpressions` without the macro.
    var predicate: Predicate<FuzzRow> {
        Predicate<FuzzRow>({ row in build(row) })
    }

    func build(_ row: Row) -> Condition {
        switch self {
        case .leaf(_, let make), .checked(_, let make, _): return make(row)
        case .and(let left, let right): return Self.conjunction(left.build(row), right.build(row))
        case .or(let left, let right): return Self.disjunction(left.build(row), right.build(row))
        case .not(let wrapped): return Self.negation(wrapped.build(row))
        }
    }

    /// Smaller trees that may fail the same way: each child, and each node with one child shrunk.
    var shrunk: [FuzzPredicate] {
        switch self {
        case .leaf, .checked: []
        case .and(let left, let right):
            [left, right] + left.shrunk.map { .and($0, right) } + right.shrunk.map { .and(left, $0) }
        case .or(let left, let right):
            [left, right] + left.shrunk.map { .or($0, right) } + right.shrunk.map { .or(left, $0) }
        case .not(let wrapped): [wrapped] + wrapped.shrunk.map { .not($0) }
        }
    }

    /// What Swift answers for `row`, with a trapping leaf read as unknown (`nil`) in Kleene's logic: `nil` at the
    /// root means the answer depends on a value Swift can't compute, so the store must throw.
    ///
    /// - Throws: what a leaf's `evaluate` throws.
    func outcome(_ row: FuzzRow) throws -> Bool? {
        switch self {
        case .leaf(_, let make): return try Predicate<FuzzRow>({ make($0) }).evaluate(row)
        case .checked(_, let make, let traps):
            return traps(row) ? nil : try Predicate<FuzzRow>({ make($0) }).evaluate(row)
        case .and(let left, let right):
            let (l, r) = (try left.outcome(row), try right.outcome(row))
            if l == false || r == false { return false }
            return l == nil || r == nil ? nil : true
        case .or(let left, let right):
            let (l, r) = (try left.outcome(row), try right.outcome(row))
            if l == true || r == true { return true }
            return l == nil || r == nil ? nil : false
        case .not(let wrapped): return try wrapped.outcome(row).map { !$0 }
        }
    }

    private static func conjunction(_ left: Condition, _ right: Condition) -> Condition {
        func open<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(
            _ l: L, _ r: R
        ) -> Condition {
            PredicateExpressions.Conjunction(lhs: l, rhs: r)
        }
        return open(left, right)
    }

    private static func disjunction(_ left: Condition, _ right: Condition) -> Condition {
        func open<L: StandardPredicateExpression<Bool>, R: StandardPredicateExpression<Bool>>(
            _ l: L, _ r: R
        ) -> Condition {
            PredicateExpressions.Disjunction(lhs: l, rhs: r)
        }
        return open(left, right)
    }

    private static func negation(_ wrapped: Condition) -> Condition {
        func open<W: StandardPredicateExpression<Bool>>(_ w: W) -> Condition { PredicateExpressions.Negation(w) }
        return open(wrapped)
    }
}

/// Builds comparison nodes: `op` 0...5 is `==`, `!=`, `<`, `<=`, `>`, `>=`.
enum FuzzRelation {
    static let symbols = ["==", "!=", "<", "<=", ">", ">="]

    static func compare<L: StandardPredicateExpression, R: StandardPredicateExpression>(
        _ left: L, _ right: R, _ op: Int
    ) -> any StandardPredicateExpression<Bool> where L.Output == R.Output, L.Output: Comparable {
        switch op {
        case 0, 1: return equate(left, right, op)
        case 2: return PredicateExpressions.Comparison(lhs: left, rhs: right, op: .lessThan)
        case 3: return PredicateExpressions.Comparison(lhs: left, rhs: right, op: .lessThanOrEqual)
        case 4: return PredicateExpressions.Comparison(lhs: left, rhs: right, op: .greaterThan)
        default: return PredicateExpressions.Comparison(lhs: left, rhs: right, op: .greaterThanOrEqual)
        }
    }

    static func equate<L: StandardPredicateExpression, R: StandardPredicateExpression>(
        _ left: L, _ right: R, _ op: Int
    ) -> any StandardPredicateExpression<Bool> where L.Output == R.Output, L.Output: Equatable {
        op % 2 == 0
            ? PredicateExpressions.Equal(lhs: left, rhs: right) : PredicateExpressions.NotEqual(lhs: left, rhs: right)
    }
}
