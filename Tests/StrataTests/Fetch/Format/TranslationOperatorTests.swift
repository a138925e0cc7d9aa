import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Each operator and modifier of the format language, run in a real store and checked against the
/// in-memory evaluator on the same tasks.
@Suite struct TranslationOperatorTests {
    /// A format string, its arguments, and the titles it matches in `TranslationFixture.seededContext()`.
    struct Case: Sendable, CustomTestStringConvertible {
        let format: String
        let arguments: [any Sendable]
        let expected: [String]
        var testDescription: String { format }

        init(_ format: String, _ arguments: any Sendable..., expect expected: [String]) {
            self.format = format
            self.arguments = arguments
            self.expected = expected
        }
    }

    static let all = ["Café order", "ÉCOLE forms", "école pickup", "Tax return", "file10", "file2"]

    static let equality: [Case] = [
        Case("title == 'file2'", expect: ["file2"]),
        Case("title = %@", "Tax return", expect: ["Tax return"]),
        Case("title != 'file2'", expect: all.filter { $0 != "file2" }),
        Case("title <> 'file2'", expect: all.filter { $0 != "file2" }),
        Case("title ==[c] 'école forms'", expect: ["ÉCOLE forms"]),
        Case("title ==[cd] 'ecole forms'", expect: ["ÉCOLE forms"]),
        Case("title ==[d] 'ecole pickup'", expect: ["école pickup"]),
        Case("title == 'ecole pickup'", expect: []),
        Case("title !=[c] 'FILE2'", expect: all.filter { $0 != "file2" }),
        Case("isCompleted == YES", expect: ["ÉCOLE forms", "file10"]),
        Case("isCompleted == NO", expect: ["Café order", "école pickup", "Tax return", "file2"]),
        Case("isCompleted == %@", true, expect: ["ÉCOLE forms", "file10"]),
        Case("status == 'waiting'", expect: ["école pickup", "file2"]),
        Case("status == %@", FormatStatus.done, expect: ["ÉCOLE forms", "file10"]),
        Case("cost == 1", expect: ["file10", "file2"]),
        Case("cost == %@", Decimal(string: "4.5")!, expect: ["Café order"]),
        Case("estimate == 0.5", expect: ["Café order"]),
        Case("estimate == 1", expect: ["école pickup"]),
    ]

    static let ordering: [Case] = [
        Case("priority > 2", expect: ["ÉCOLE forms", "Tax return"]),
        Case("priority >= 2", expect: ["Café order", "ÉCOLE forms", "Tax return", "file2"]),
        Case("priority => 3", expect: ["ÉCOLE forms", "Tax return"]),
        Case("priority < 1", expect: ["file10"]),
        Case("priority <= 1", expect: ["école pickup", "file10"]),
        Case("priority =< %d", 0, expect: ["file10"]),
        Case("estimate > %f", 2.5, expect: ["Tax return", "file2"]),
        Case("cost > 4", expect: ["Café order", "ÉCOLE forms", "Tax return"]),
        Case("cost < %@", Decimal(12), expect: ["Café order", "école pickup", "file10", "file2"]),
        Case("dueDate < %@", TranslationFixture.date(2), expect: ["ÉCOLE forms"]),
        Case("dueDate >= 345600", expect: ["Tax return", "file10", "file2"]),
        Case("dueDate < now()", expect: all),
        Case("title <[c] 'D'", expect: ["Café order"]),
    ]

    static let strings: [Case] = [
        Case("title BEGINSWITH 'école'", expect: ["école pickup"]),
        Case("title BEGINSWITH[c] 'ÉCOLE'", expect: ["ÉCOLE forms", "école pickup"]),
        Case("title BEGINSWITH[cd] 'ecole'", expect: ["ÉCOLE forms", "école pickup"]),
        Case("title CONTAINS[cd] 'cafe'", expect: ["Café order"]),
        Case("title CONTAINS 'afe'", expect: []),
        Case("title CONTAINS[c] 'FILE'", expect: ["file10", "file2"]),
        Case("title ENDSWITH[c] 'ORDER'", expect: ["Café order"]),
        Case("title ENDSWITH '0'", expect: ["file10"]),
        Case("title LIKE 'file?'", expect: ["file2"]),
        Case("title LIKE[c] 'FILE*'", expect: ["file10", "file2"]),
        Case("title LIKE '*o*'", expect: ["Café order", "ÉCOLE forms", "école pickup"]),
        Case("notes LIKE 'a\\\\*b?c'", expect: ["file2"]),
        Case("title MATCHES 'file[0-9]+'", expect: ["file10", "file2"]),
        Case("title MATCHES 'file'", expect: []),
        Case("title MATCHES[c] 'TAX.*'", expect: ["Tax return"]),
        // A nil `notes` fails CONTAINS, so NOT matches it (Strata's two-valued rule, like `!=`).
        Case("NOT notes CONTAINS 'milk'", expect: ["ÉCOLE forms", "école pickup", "Tax return", "file10", "file2"]),
        Case("lowercase(title) == 'école forms'", expect: ["ÉCOLE forms"]),
    ]

    static let membership: [Case] = [
        Case("priority IN {1, 3}", expect: ["ÉCOLE forms", "école pickup"]),
        Case("priority IN %@", [5, 0], expect: ["Tax return", "file10"]),
        Case("status IN %@", ["done"], expect: ["ÉCOLE forms", "file10"]),
        Case("title IN[c] {'FILE2', 'tax return'}", expect: ["Tax return", "file2"]),
        Case("notes IN {nil, '3pm'}", expect: ["ÉCOLE forms", "école pickup"]),
        Case("priority IN {}", expect: []),
        Case("{1, 3} CONTAINS priority", expect: ["ÉCOLE forms", "école pickup"]),
        Case("'oat' IN notes", expect: ["Café order"]),
        Case("priority IN {estimate, 5}", expect: ["Tax return", "école pickup"]),
        Case("priority BETWEEN {2, 3}", expect: ["Café order", "ÉCOLE forms", "file2"]),
        Case(
            "dueDate BETWEEN %@", [TranslationFixture.date(2), TranslationFixture.date(3)],
            expect: ["Café order", "école pickup"]),
        Case("cost BETWEEN {1, 5}", expect: ["Café order", "file10", "file2"]),
    ]

    static let nulls: [Case] = [
        Case("notes == nil", expect: ["ÉCOLE forms"]),
        Case("notes == NULL", expect: ["ÉCOLE forms"]),
        Case("notes != NIL", expect: all.filter { $0 != "ÉCOLE forms" }),
        Case("nil == notes", expect: ["ÉCOLE forms"]),
        Case("notes == %@", Optional<String>.none as any Sendable, expect: ["ÉCOLE forms"]),
        Case("notes != 'oat milk'", expect: all.filter { $0 != "Café order" }),
        Case("notes > ''", expect: ["Café order", "école pickup", "Tax return", "file2"]),
        Case("NOT (notes > '')", expect: ["ÉCOLE forms", "file10"]),
    ]

    static let logic: [Case] = [
        Case("TRUEPREDICATE", expect: all),
        Case("FALSEPREDICATE", expect: []),
        Case("NOT (priority > 2) AND isCompleted == NO", expect: ["Café order", "école pickup", "file2"]),
        Case("priority > 4 OR title == 'file10'", expect: ["Tax return", "file10"]),
        Case("!(priority > 4 || isCompleted == YES) && estimate < 1", expect: ["Café order"]),
        Case("TRUEPREDICATE AND FALSEPREDICATE", expect: []),
    ]

    static let arithmetic: [Case] = [
        Case("priority * 2 > 5", expect: ["ÉCOLE forms", "Tax return"]),
        Case("estimate + priority > 6", expect: ["Tax return"]),
        Case("priority / 2 > 1", expect: ["ÉCOLE forms", "Tax return"]),
        Case("priority - 1 == -1", expect: ["file10"]),
        Case("abs(priority - 3) == 0", expect: ["ÉCOLE forms"]),
        Case("abs(2 - priority) >= 3", expect: ["Tax return"]),
        Case("dueDate + 86400 > %@", TranslationFixture.date(5), expect: ["Tax return"]),
        Case("priority ** 2 > 8", expect: ["ÉCOLE forms", "Tax return"]),
        Case("2 ** priority == 4", expect: ["Café order", "file2"]),
        Case("estimate ** 0.5 == 0.5", expect: ["file10"]),
        Case("(priority - 3) ** 0.5 > 1", expect: ["Tax return"]),
    ]

    private func check(_ example: Case, _ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let predicate = FormatPredicate(format: example.format, argumentArray: example.arguments)
        let store = try TranslationFixture.titles(predicate, in: context)
        #expect(store == example.expected.sorted())
        #expect(try TranslationFixture.evaluatedTitles(predicate, in: context) == store, "evaluator vs store")
    }

    @Test(arguments: equality, StoreKind.all) func equalityOperators(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: ordering, StoreKind.all) func orderingOperators(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: strings, StoreKind.all) func stringOperators(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: membership, StoreKind.all) func membershipOperators(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: nulls, StoreKind.all) func nullComparisons(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: logic, StoreKind.all) func compoundPredicates(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
    @Test(arguments: arithmetic, StoreKind.all) func arithmeticExpressions(_ example: Case, _ kind: StoreKind) throws {
        try check(example, kind)
    }
}
