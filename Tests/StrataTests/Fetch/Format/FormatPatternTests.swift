import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Constant `MATCHES` patterns are checked when the predicate is built, never halfway through a query.
@Suite struct FormatPatternTests {
    @Test func invalidLiteralAndArgumentPatternsFailValidation() throws {
        for predicate in [
            FormatPredicate(format: "title MATCHES '('"), FormatPredicate(format: "title MATCHES[c] %@", "a)(b"),
            FormatPredicate(format: "SUBQUERY(tags, $t, $t.name MATCHES '*').@count > 0"),
            FormatPredicate(format: "NOT (title MATCHES %@ OR title == 'x')", "["),
        ] {
            let error = #expect(throws: PredicateFormatError.self, "\(predicate)") { try predicate.validated() }
            #expect(error?.kind == .invalidRegularExpression)
            #expect(error?.description.hasPrefix("Invalid regular expression for MATCHES: '") == true)
        }
        #expect(throws: Never.self) { try FormatPredicate(format: "title MATCHES %@", "a(b|c)*").validated() }
        // Valid alone, but not a valid group body: the wrapped pattern must not make it valid.
        #expect(FormatPredicate(format: "title MATCHES 'a)(b'").error?.kind == .invalidRegularExpression)
    }

    @Test func substitutedPatternsAreCheckedToo() throws {
        let template = FormatPredicate(format: "title MATCHES $PATTERN")
        #expect(throws: Never.self) { try template.withSubstitutionVariables(["PATTERN": "f.*"]).validated() }
        let error = #expect(throws: PredicateFormatError.self) {
            try template.withSubstitutionVariables(["PATTERN": "f(.*"]).validated()
        }
        #expect(error?.kind == .invalidRegularExpression)
        #expect(error?.message == "Invalid regular expression for MATCHES: 'f(.*'")
        #expect(error?.token == "MATCHES" && error?.offset == 6)
    }

    @Test(arguments: StoreKind.all)
    func fetchingThrowsTheValidationErrorWithoutRunningAQuery(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        #expect(throws: PredicateFormatError.self) {
            try context.fetch(FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "title MATCHES '('")))
        }
    }
}
