import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Suite struct PredicateStringTests {
    private static var books: [PredicateBook] {
        [
            PredicateBook(serial: 1, title: ""),
            PredicateBook(serial: 2, title: "Dune"),
            PredicateBook(serial: 3, title: "👨‍👩‍👧 family"),
            PredicateBook(serial: 4, title: "Cafe\u{301} Müller"),
            PredicateBook(serial: 5, title: "file10"),
        ]
    }

    @Test(arguments: StoreKind.all) func countIsCharactersNotCodePoints(_ kind: StoreKind) throws {
        #expect(
            try PredicateFixture.sql(#Predicate { $0.title.count > 4 }).sql == #"(strata_character_count("title") > ?)"#
        )
        #expect(try PredicateFixture.sql(#Predicate { $0.title.isEmpty }).sql == #"("title" IS ?)"#)
        let context = try PredicateFixture.context(kind, with: Self.books)
        // The family emoji is one Character of five code points; "Café" ends in a combining accent.
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.count == 8 }, in: context) == [3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.count == 11 }, in: context) == [4])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.title.isEmpty }, in: context) == [1])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { !$0.title.isEmpty }, in: context) == [2, 3, 4, 5])
    }

    @Test(arguments: StoreKind.all) func localizedStandardContainsCompilesAndRunsInTheStore(_ kind: StoreKind) throws {
        let search = "cafe"
        let predicate = #Predicate<PredicateBook> { $0.title.localizedStandardContains(search) }
        #expect(try PredicateFixture.sql(predicate).sql == #"strata_localized_standard_contains("title", ?)"#)
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(predicate, in: context) == [4])
        let empty = ""
        #expect(
            try PredicateFixture.expectSameMatches(
                #Predicate { $0.title.localizedStandardContains(empty) }, in: context) == [])
        let muller = "MULLER"
        #expect(
            try PredicateFixture.expectSameMatches(
                #Predicate { $0.title.localizedStandardContains(muller) }, in: context) == [4])
    }

    @Test(arguments: StoreKind.all) func caseInsensitiveCompareCompilesAndRunsInTheStore(_ kind: StoreKind) throws {
        let name = "DUNE"
        let same = ComparisonResult.orderedSame
        let ascending = ComparisonResult.orderedAscending
        let predicate = #Predicate<PredicateBook> { $0.title.caseInsensitiveCompare(name) == same }
        let rendered = try PredicateFixture.sql(predicate)
        #expect(rendered.sql == #"(strata_compare("title", ?, ?) IS ?)"#)
        #expect(rendered.bindings == [.text("DUNE"), .integer(2), .integer(0)])
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(predicate, in: context) == [2])
        try PredicateFixture.expectSameMatches(
            #Predicate { $0.title.caseInsensitiveCompare(name) == ascending }, in: context)
    }
}
