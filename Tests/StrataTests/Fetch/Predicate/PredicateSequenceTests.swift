import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Suite struct PredicateSequenceTests {
    private static var books: [PredicateBook] {
        [
            PredicateBook(serial: 1, title: "Dune", summary: nil, pages: 1),
            PredicateBook(serial: 2, title: "Dune Messiah", summary: "sand", pages: 5),
            PredicateBook(serial: 3, title: "Kindred", summary: "time", pages: 6),
            PredicateBook(serial: 4, title: "cafe\u{301}", summary: "", pages: 10),
            PredicateBook(serial: 5, title: "👨‍👩‍👧 🇫🇷🇩🇪", pages: 8),
        ]
    }

    @Test(arguments: StoreKind.all) func listContainsBecomesIn(_ kind: StoreKind) throws {
        let titles = ["Dune", "Kindred"]
        let list = try PredicateFixture.sql(#Predicate { titles.contains($0.title) })
        #expect(list.sql == #"("title" COLLATE STRATA_SWIFT IN (?, ?))"#)
        #expect(list.bindings == [.text("Dune"), .text("Kindred")])
        let summaries: [String?] = ["sand", nil]
        #expect(
            try PredicateFixture.sql(#Predicate { summaries.contains($0.summary) }).sql
                == #"(("summary" COLLATE STRATA_SWIFT IN (?)) OR ("summary" IS NULL))"#)
        let none: [String] = []
        #expect(try PredicateFixture.sql(#Predicate { none.contains($0.title) }).sql == "0")
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { titles.contains($0.title) }, in: context) == [1, 3])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { summaries.contains($0.summary) }, in: context) == [
                1, 2, 5,
            ])
    }

    @Test(arguments: StoreKind.all) func stringContainsAndStartsWith(_ kind: StoreKind) throws {
        #expect(
            try PredicateFixture.sql(#Predicate { $0.title.contains("un") }).sql
                == #"strata_character_contains("title", ?)"#)
        #expect(
            try PredicateFixture.sql(#Predicate { $0.title.starts(with: "Du") }).sql
                == #"strata_character_beginswith("title", ?)"#)
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.contains("e M") }, in: context) == [2])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { $0.title.contains("") }, in: context) == [
                1, 2, 3, 4, 5,
            ])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { $0.title.starts(with: "Dune") }, in: context) == [1, 2])
        // Whole Characters only, as in Swift: no match inside an emoji sequence or before a combining accent.
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.contains("🇷🇩") }, in: context) == [])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.starts(with: "👨") }, in: context) == [])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.contains("cafe") }, in: context) == [])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.contains("👨‍👩‍👧") }, in: context) == [5])
        // Case matters, as in Swift.
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.starts(with: "dune") }, in: context) == [])
    }

    @Test(arguments: StoreKind.all) func closedAndHalfOpenRanges(_ kind: StoreKind) throws {
        let closed = try PredicateFixture.sql(#Predicate { (1...5).contains($0.pages) })
        #expect(closed.sql == #"("pages" BETWEEN ? AND ?)"#)
        #expect(closed.bindings == [.integer(1), .integer(5)])
        #expect(
            try PredicateFixture.sql(#Predicate { (1..<5).contains($0.pages) }).sql
                == #"(("pages" >= ?) AND ("pages" < ?))"#)
        let captured = 5...10
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { (1...5).contains($0.pages) }, in: context) == [1, 2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { (1..<5).contains($0.pages) }, in: context) == [1])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { captured.contains($0.pages) }, in: context) == [
                2, 3, 4, 5,
            ])
        #expect(
            try PredicateFixture.expectSameMatches(#Predicate { ($0.pages...10).contains(6) }, in: context) == [
                1, 2, 3,
            ])
    }
}
