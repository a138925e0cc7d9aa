import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Strata's own size limits refuse oversized predicates with an error naming the limit and the value,
/// before SQLite's limits (expression depth 1000, 32,766 bound values) would fail the fetch.
@Suite struct FormatLimitTests {
    private static func alternatives(_ count: Int) -> String {
        (0..<count).map { "priority == \($0)" }.joined(separator: " OR ")
    }

    @Test func longChainsOfOrAreRefusedWhenCreated() throws {
        let error = #expect(throws: PredicateFormatError.self) {
            try FormatPredicate(format: Self.alternatives(FormatExpression.maximumCompoundMembers + 1)).validated()
        }
        #expect(error?.kind == .tooLarge)
        #expect(
            error?.message
                == "The predicate joins 501 predicates with OR; Strata's limit is 500 (use IN with a list for many alternatives)"
        )
        let built = FormatPredicate(
            andPredicateWithSubpredicates: (0...500).map { FormatPredicate(format: "priority != %d", $0) })
        #expect(built.error?.message.hasPrefix("The predicate joins 501 predicates with AND") == true)
    }

    @Test(arguments: StoreKind.all)
    func chainAtTheLimitRunsInSQLite(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let titles = try TranslationFixture.titles(
            FormatPredicate(format: Self.alternatives(FormatExpression.maximumCompoundMembers)), in: context)
        #expect(titles.count == 6)
    }

    @Test func hugeListsAreRefusedWhenCreated() throws {
        let list = Array(0...FormatExpression.maximumListCount)
        for predicate in [
            FormatPredicate(format: "priority IN %@", list),
            FormatPredicate(format: "NOT (priority IN $L)").withSubstitutionVariables(["L": list]),
        ] {
            let error = #expect(throws: PredicateFormatError.self) { try predicate.validated() }
            #expect(error?.kind == .tooLarge)
            #expect(error?.message == "A list holds 10001 values; Strata's limit is 10000")
        }
    }

    @Test(arguments: StoreKind.all)
    func tooManyBoundValuesAreRefusedAtTranslation(_ kind: StoreKind) throws {
        let entity = try TranslationFixture.taskEntity()
        let list = Array(0..<7_600)
        let four = FormatPredicate(
            format: "priority IN %@ OR priority IN %@ OR estimate IN %@ OR priority IN %@", list, list, list, list)
        let error = #expect(throws: StrataError.self) { try FormatTranslator.translate(four, entity: entity) }
        #expect(
            error?.description.contains("it binds 30400 values; Strata's limit is 30000 (SQLite's is 32766)") == true,
            "\(String(describing: error))")
        // Just under the limit, SQLite runs it.
        let context = try TranslationFixture.seededContext(kind)
        let under = FormatPredicate(
            format: "priority IN %@ OR priority IN %@ OR priority IN %@ OR priority IN %@", list, list, list,
            Array(0..<7_000))
        #expect(try TranslationFixture.titles(under, in: context).count == 6)
    }

    /// Shapes of nesting, each `n` levels deep.
    static let nestings: [@Sendable (Int) -> String] = [
        { String(repeating: "NOT (", count: $0) + "notes CONTAINS 'e'" + String(repeating: ")", count: $0) },
        {
            String(repeating: "priority == 1 OR (priority == 2 AND (", count: $0) + "TRUEPREDICATE"
                + String(repeating: "))", count: $0)
        },
        { "priority" + String(repeating: " + 1", count: $0) + " > 0" },
        { "0 < " + String(repeating: "2 * (", count: $0) + "priority" + String(repeating: ")", count: $0) },
        {
            String(repeating: "NOT (ANY tags.name == 'x' OR ", count: $0) + "title IN {'a', 'b'}"
                + String(repeating: ")", count: $0)
        },
    ]

    @Test(arguments: StoreKind.all)
    func sqlNestedTooDeeplyIsRefusedBeforeSQLiteWouldBe(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let entity = try TranslationFixture.taskEntity()
        for (shape, format) in Self.nestings.enumerated() {
            var accepted = 0
            var refusal: (any Error)?
            for levels in 1...150 {
                do {
                    _ = try FormatTranslator.translate(FormatPredicate(format: format(levels)), entity: entity)
                    accepted = levels
                } catch {
                    refusal = error
                    break
                }
            }
            #expect(
                refusal.map { "\($0)".contains("Strata's limit is 80 (SQLite's parser stops at 100)") } == true,
                "shape \(shape): \(String(describing: refusal))")
            #expect(accepted >= 10, "shape \(shape) accepts only \(accepted) levels")
            // The deepest accepted predicate runs in SQLite.
            #expect(throws: Never.self, "shape \(shape) at \(accepted) levels") {
                try TranslationFixture.titles(FormatPredicate(format: format(accepted)), in: context)
            }
        }
    }
}
