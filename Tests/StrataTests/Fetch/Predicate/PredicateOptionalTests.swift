import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Suite struct PredicateOptionalTests {
    private static var books: [PredicateBook] {
        [
            PredicateBook(serial: 1, title: "a", summary: nil, rating: nil, isRead: true),
            PredicateBook(serial: 2, title: "b", summary: "", rating: 0),
            PredicateBook(serial: 3, title: "c", summary: "short", rating: 3, isRead: true),
            PredicateBook(serial: 4, title: "d", summary: "🇫🇷 flag", rating: 5),
            PredicateBook(serial: 5, title: "e", summary: "cafe\u{301}", rating: nil),
        ]
    }

    @Test(arguments: StoreKind.all) func nilCoalescingAndNil(_ kind: StoreKind) throws {
        let coalesced = try PredicateFixture.sql(#Predicate { ($0.summary ?? "none") == "none" })
        #expect(coalesced.sql == #"(COALESCE("summary", ?) COLLATE STRATA_SWIFT IS ?)"#)
        #expect(coalesced.bindings == [.text("none"), .text("none")])
        #expect(try PredicateFixture.sql(#Predicate { $0.summary == nil }).sql == #"("summary" IS ?)"#)
        #expect(try PredicateFixture.sql(#Predicate { $0.summary == nil }).bindings == [.null])
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(#Predicate { ($0.rating ?? -1) < 1 }, in: context) == [1, 2, 5])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.rating != nil }, in: context) == [2, 3, 4])
    }

    @Test(arguments: StoreKind.all) func optionalChainingCountsCharacters(_ kind: StoreKind) throws {
        let chained = try PredicateFixture.sql(#Predicate { ($0.summary?.count ?? 0) > 4 })
        #expect(
            chained.sql
                == #"(COALESCE(CASE WHEN ("summary" IS NULL) THEN ? ELSE strata_character_count("summary") END, ?) > ?)"#
        )
        let context = try PredicateFixture.context(kind, with: Self.books)
        // "🇫🇷 flag" is 6 Characters and "café" (decomposed) 4, whatever their code-point counts.
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { ($0.summary?.count ?? 0) > 4 }, in: context) == [3, 4])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { $0.summary.flatMap { $0.count } == 4 }, in: context)
                == [5])
    }

    @Test(arguments: StoreKind.all) func ifLetBecomesACaseExpression(_ kind: StoreKind) throws {
        let context = try PredicateFixture.context(kind, with: Self.books)
        let predicate = #Predicate<PredicateBook> { book in
            if let summary = book.summary { summary.isEmpty } else { book.isRead }
        }
        #expect(try PredicateFixture.expectSameMatches(predicate, in: context) == [1, 2])
    }

    @Test(arguments: StoreKind.all) func forcedUnwrapReadsTheValue(_ kind: StoreKind) throws {
        #expect(try PredicateFixture.sql(#Predicate { $0.rating! > 2 }).sql == #"("rating" > ?)"#)
        let context = try PredicateFixture.context(kind, with: Self.books.filter { $0.rating != nil })
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.rating! > 2 }, in: context) == [3, 4])
    }

    @Test(arguments: StoreKind.all) func conditionalBecomesCase(_ kind: StoreKind) throws {
        let ternary = try PredicateFixture.sql(#Predicate { ($0.isRead ? $0.pages : 10) == 10 })
        #expect(ternary.sql == #"(CASE WHEN ("isRead" IS ?) THEN "pages" ELSE ? END IS ?)"#)
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { ($0.isRead ? $0.pages : 10) == 10 }, in: context) == [
                2, 4, 5,
            ])
    }
}
