import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@Suite struct PredicateComparisonTests {
    private static let early = Date(timeIntervalSinceReferenceDate: 100)
    private static let late = Date(timeIntervalSinceReferenceDate: 200)
    private static let codes = (0..<3).map { UUID(uuid: (UInt8($0), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }

    private static var books: [PredicateBook] {
        [
            PredicateBook(
                serial: 1, title: "a", rating: nil, isRead: true, published: early, code: codes[0],
                price: Decimal(string: "9.5") ?? 0, shelf: .fiction),
            PredicateBook(
                serial: 2, title: "b", rating: 2, isRead: false, published: late, code: codes[1],
                price: Decimal(string: "10.25") ?? 0, shelf: .poetry),
            PredicateBook(
                serial: 3, title: "c", rating: 4, isRead: true, published: late, code: codes[2],
                price: Decimal(string: "100") ?? 0, shelf: .science),
        ]
    }

    @Test func comparisonsOfConstantsFoldAndComparisonsOfTheInputDoNot() throws {
        let low = 3
        let high = 4
        // Both sides constant: evaluated once; the input on either side: a column comparison with a binding.
        #expect(try PredicateFixture.sql(#Predicate { _ in low + 1 == high }).sql == "1")
        #expect(try PredicateFixture.sql(#Predicate { _ in high < low }).sql == "0")
        #expect(try PredicateFixture.sql(#Predicate { $0.pages < low * high }).sql == #"("pages" < ?)"#)
        #expect(try PredicateFixture.sql(#Predicate { low * high < $0.pages }).bindings == [.integer(12)])
        #expect(try PredicateFixture.sql(#Predicate { $0.pages != $0.serial }).sql == #"("pages" IS NOT "serial")"#)
    }

    @Test(arguments: StoreKind.all) func boolsDatesAndUUIDs(_ kind: StoreKind) throws {
        #expect(try PredicateFixture.sql(#Predicate { $0.isRead }).sql == #"("isRead" IS ?)"#)
        let cutoff = Self.early
        let code = Self.codes[1]
        let dated = try PredicateFixture.sql(#Predicate { $0.published > cutoff })
        #expect(dated.bindings == [.real(100)])
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.isRead }, in: context) == [1, 3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { !$0.isRead }, in: context) == [2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.isRead == false }, in: context) == [2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.published > cutoff }, in: context) == [2, 3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.code == code }, in: context) == [2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.code != code }, in: context) == [1, 3])
    }

    @Test(arguments: StoreKind.all) func decimalsCompareByValue(_ kind: StoreKind) throws {
        let ten = Decimal(10)
        let context = try PredicateFixture.context(kind, with: Self.books)
        // As text "9.5" > "10.25" > "100"; by value 9.5 < 10 < 10.25 < 100.
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.price > ten }, in: context) == [2, 3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.price <= ten }, in: context) == [1])
    }

    @Test(arguments: StoreKind.all) func optionalsAndRawValueEnums(_ kind: StoreKind) throws {
        let poetry = PredicateShelf.poetry
        let two: Int? = 2
        let shelf = try PredicateFixture.sql(#Predicate { $0.shelf == poetry })
        #expect(shelf.bindings == [.text("poetry")])
        let context = try PredicateFixture.context(kind, with: Self.books)
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.shelf == poetry }, in: context) == [2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.shelf != poetry }, in: context) == [1, 3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.rating == two }, in: context) == [2])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.rating != two }, in: context) == [1, 3])
        #expect(try PredicateFixture.expectSameMatches(#Predicate { $0.rating == nil }, in: context) == [1])
    }

    @Test func unsupportedNodesAreNamed() throws {
        #expect {
            try PredicateFixture.sql(#Predicate { $0.published.timeIntervalSince1970 > 0 })
        } throws: { error in
            guard case StrataError.unsupportedPredicate(let expression, let reason) = error else { return false }
            return expression == "KeyPath<KeyPath<Variable<PredicateBook>, Date>, Double>" && reason.contains("Date")
        }
    }
}
