import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Suite struct PredicateArithmeticTests {
    @Test func integerArithmeticIsCheckedAgainstTheSwiftType() throws {
        let sum = try PredicateFixture.sql(#Predicate { $0.pages + 1 > 2 })
        #expect(sum.sql == #"(strata_int_add("pages", ?, ?, ?) > ?)"#)
        #expect(sum.bindings == [.integer(1), .integer(Int64.min), .integer(Int64.max), .integer(2)])
        let small = try PredicateFixture.sql(#Predicate { $0.small * 2 == 8 })
        #expect(small.sql == #"(strata_int_mul("small", ?, ?, ?) IS ?)"#)
        #expect(small.bindings == [.integer(2), .integer(-128), .integer(127), .integer(8)])
    }

    @Test func divisionRemainderAndNegation() throws {
        #expect(
            try PredicateFixture.sql(#Predicate { $0.pages / 2 == 1 }).sql
                == #"(strata_int_div("pages", ?, ?, ?) IS ?)"#)
        #expect(
            try PredicateFixture.sql(#Predicate { $0.pages % 3 != 0 }).sql
                == #"(strata_int_rem("pages", ?, ?, ?) IS NOT ?)"#)
        #expect(
            try PredicateFixture.sql(#Predicate { -$0.pages < 0 }).sql == #"(strata_int_sub(?, "pages", ?, ?) < ?)"#)
        #expect(
            try PredicateFixture.sql(#Predicate { $0.ratio / 2 > 1 }).sql
                == #"((strata_real_div("ratio", ?) > ?) AND (strata_real_div("ratio", ?) <= ?))"#)
        #expect(try PredicateFixture.sql(#Predicate { -$0.ratio < 1 }).sql == #"(strata_real_sub(?, "ratio") < ?)"#)
    }

    @Test(arguments: StoreKind.all) func resultsFollowSwift(_ kind: StoreKind) throws {
        let books = (-7...7).map {
            PredicateBook(serial: $0, title: "b\($0)", pages: $0, small: Int8($0), ratio: Double($0) / 4)
        }
        let context = try PredicateFixture.context(kind, with: books)
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.pages / 2 == -1 }, in: context) == [-3, -2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.pages % 3 == -1 }, in: context) == [-7, -4, -1])
        try PredicateFixture.expectSameMatches(#Predicate { $0.pages * 3 - 1 > $0.pages + 4 }, in: context)
        try PredicateFixture.expectSameMatches(#Predicate { -$0.small >= 3 }, in: context)
        try PredicateFixture.expectSameMatches(#Predicate { $0.ratio / 0.5 < 1.5 }, in: context)
    }

    @Test(arguments: StoreKind.all) func overflowFailsTheFetchInsteadOfWidening(_ kind: StoreKind) throws {
        let context = try PredicateFixture.context(
            kind,
            with: [
                PredicateBook(serial: 1, title: "a", pages: Int.max, small: 100)
            ])
        #expect(throws: StrataError.self) {
            try context.fetch(FetchDescriptor<PredicateBook>(predicate: #Predicate { $0.pages + 1 > 0 }))
        }
        // Int8 overflows at 127 in Swift, long before Int64 does.
        #expect(throws: StrataError.self) {
            try context.fetch(FetchDescriptor<PredicateBook>(predicate: #Predicate { $0.small * 2 > 0 }))
        }
    }

    @Test(arguments: StoreKind.all) func divisionByZeroMatchesNoRow(_ kind: StoreKind) throws {
        let context = try PredicateFixture.context(kind, with: [PredicateBook(serial: 1, title: "a", pages: 4)])
        let zero = 0
        #expect(
            try context.fetch(FetchDescriptor<PredicateBook>(predicate: #Predicate { $0.pages / zero < 10 })).isEmpty)
        #expect(
            try context.fetch(FetchDescriptor<PredicateBook>(predicate: #Predicate { $0.pages % zero < 10 })).isEmpty)
    }

    @Test func decimalArithmeticIsRejectedByName() throws {
        #expect {
            try PredicateFixture.sql(#Predicate { $0.price + 1 > 2 })
        } throws: { error in
            "\(error)".contains("Arithmetic") && "\(error)".contains("Decimal")
        }
    }
}
