import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Strata's two-valued rule for nil: every comparison is true or false, so `NOT p` matches exactly the
/// rows `p` does not, nil rows included, in the store and in the evaluator alike.
@Suite struct TranslationNegationTests {
    /// Predicates reading values that are nil in some rows: `notes` (nil for one task), `project.name`
    /// (no project for two), aggregates over no tags.
    static let nilReading = [
        "notes == 'oat milk'", "notes != 'oat milk'", "notes < 'b'", "notes >= 'a'",
        "notes ==[c] 'OAT MILK'", "notes !=[cd] '3PM'", "notes > 'a'",
        "notes CONTAINS 'e'", "notes BEGINSWITH[c] 'd'", "notes ENDSWITH 'pm'",
        "notes LIKE '*a*'", "notes MATCHES '.*m.*'", "notes IN {'3pm', 'oat milk'}", "notes IN {nil, '3pm'}",
        "'oat' IN notes", "notes BETWEEN {'a', 'z'}", "lowercase(notes) == 'deadline is near'",
        "project.name == 'Home'", "project.name != 'Home'", "project.name CONTAINS[c] 'o'", "project.name < 'I'",
        "tags.@max.name > 'a'", "tags.@min.name == 'Urgent'", "tags.@count == 0",
        "ANY tags.name == 'later'", "ALL tags.name CONTAINS 'r'", "tags.name LIKE '*e*'",
        "(notes CONTAINS 'e') AND priority > 1", "notes CONTAINS 'e' OR project.name == 'Work'",
        "NOT (notes > 'a')",
    ]

    /// Every case on every store.
    static let negationCases = StoreKind.all.flatMap { kind in nilReading.map { (kind, $0) } }

    @Test(arguments: negationCases) func negationIsTheComplement(_ kind: StoreKind, _ format: String) throws {
        let context = try TranslationFixture.seededContext(kind)
        let all = try TranslationFixture.titles(FormatPredicate(value: true), in: context)
        let matching = try TranslationFixture.expectTitles(
            format, in: context, try TranslationFixture.titles(FormatPredicate(format: format), in: context))
        let negated = try TranslationFixture.expectTitles(
            "NOT (\(format))", in: context,
            all.filter { !matching.contains($0) })
        #expect(Set(matching).isDisjoint(with: negated))
    }

    @Test(arguments: StoreKind.all)
    func nilFailsEveryOperatorExceptNilTests(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        // ÉCOLE forms is the only task whose notes are nil.
        for format in [
            "NOT (notes CONTAINS 'e')", "NOT (notes LIKE '*')", "NOT (notes MATCHES '.*')",
            "NOT (notes BETWEEN {'', 'zzz'})",
            "NOT (notes IN {'3pm'})", "NOT (notes >= '')", "notes != 'x'",
        ] {
            let titles = try TranslationFixture.expectTitles(
                format, in: context, try TranslationFixture.titles(FormatPredicate(format: format), in: context))
            #expect(titles.contains("ÉCOLE forms"), "\(format)")
        }
    }

    @Test func negationReadsUnknownAsFalse() throws {
        let contains = try TranslationFixture.sql("NOT (notes CONTAINS 'e')").sql
        #expect(contains == #"(NOT COALESCE(strata_contains("notes", ?, ?), ?))"#, "\(contains)")
        // Conditions that are never unknown are negated as they are.
        #expect(try TranslationFixture.sql("notes != 'e'").sql == #"(NOT ("notes" IS ?))"#)
        #expect(try TranslationFixture.sql("NOT (ANY tags.name == 'x')").sql.hasPrefix("(NOT EXISTS (SELECT 1 FROM "))
        #expect(
            try TranslationFixture.sql("NOT NOT (priority > 1)").sql == #"(NOT (NOT COALESCE(("priority" > ?), ?)))"#)
    }
}
