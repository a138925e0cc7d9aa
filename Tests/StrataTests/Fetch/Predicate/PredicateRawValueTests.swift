import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

private enum Planet: Int {
    case mercury, venus, earth
}

private enum Single: String {
    case only = "the only one"
}

private struct Wrapper: RawRepresentable, Equatable {
    var rawValue: String
}

@Suite("Raw values of stored enums in #Predicate")
struct PredicateRawValueTests {
    @Test("Every case of an enum that isn't CaseIterable is read from its metadata")
    func everyCaseOfAPlainEnum() {
        #expect(PredicateTranslator.everyCase(of: Planet.self) == [.mercury, .venus, .earth])
        #expect(PredicateTranslator.everyCase(of: Single.self) == [.only])
        #expect(PredicateTranslator.everyCase(of: Genre.self)?.count == 2)
        #expect(PredicateTranslator.everyCase(of: Wrapper.self) == nil)
    }

    @Test("rawValue of a stored enum is its column; the SQL compares the stored raw value")
    func rawValueTranslatesToTheColumn() throws {
        let container = try inMemoryContainer(Everything.self)
        let entity = try #require(container.schema.entity(for: Everything.self))
        let byRawValue = try PredicateTranslator.translate(
            #Predicate<Everything> { $0.genre.rawValue == "poetry" }, entity: entity)
        // A String raw value compares as Swift compares Strings, like any String-valued expression.
        #expect(byRawValue == .equal(.collated(.column("genre"), .swift), .value(.text("poetry"))))
        let poetry = Genre.poetry
        let byCase = try PredicateTranslator.translate(#Predicate<Everything> { $0.genre == poetry }, entity: entity)
        #expect(byCase == .equal(.column("genre"), .value(.text("poetry"))))
    }
}
