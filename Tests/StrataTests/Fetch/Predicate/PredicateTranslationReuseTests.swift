import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// The translator keeps what it learns about each predicate node's type for the life of the process; these tests
/// translate predicates of the same shape with different captured values, and nodes whose conformances depend on
/// their type arguments, one after another, and check each gets its own SQL.
@Suite struct PredicateTranslationReuseTests {
    @Test func theSameShapeTranslatesEachCapturedValue() throws {
        for limit in [3, 7, -1] {
            let translated = try PredicateFixture.sql(#Predicate { $0.pages > limit })
            #expect(translated.sql == #"("pages" > ?)"#)
            #expect(translated.bindings == [.integer(Int64(limit))])
        }
    }

    @Test func aNaNCapturedValueIsSeenEachTime() throws {
        for value in [1.5, .nan, 2.5] {
            let optional: Double? = value
            let expected: (sql: String, bindings: [StoredValue]) =
                value.isNaN
                // Nothing equals NaN in Swift, NaN itself included.
                ? (#"(("ratio" IS ?) AND ("ratio" IS NOT ?))"#, [.text("NaN"), .text("NaN")])
                : (#"("ratio" IS ?)"#, [.real(value)])
            for translated in [
                try PredicateFixture.sql(#Predicate { $0.ratio == value }),
                try PredicateFixture.sql(#Predicate { $0.ratio == optional ?? 0 }),
            ] {
                #expect(translated.sql == expected.sql)
                #expect(translated.bindings == expected.bindings)
            }
        }
    }

    @Test func integerAndFloatingArithmeticFoldDifferently() throws {
        // Integer constants fold only when Swift computes them without trapping; floating-point ones always fold.
        let big = Int.max
        for _ in 0..<2 {
            #expect(try PredicateFixture.sql(#Predicate { $0.pages > 1 + 2 }).bindings == [.integer(3)])
            #expect(
                try PredicateFixture.sql(#Predicate { $0.ratio > 1.5 + 2 }).bindings == [.real(3.5), .real(.infinity)])
            let overflowing = try PredicateFixture.sql(#Predicate { $0.pages > big + 1 })
            #expect(overflowing.sql.contains("strata_int_add"))
        }
    }
}
