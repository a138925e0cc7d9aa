import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Strata SQL text functions")
struct SQLiteFunctionsTests {
    private let connection: SQLiteConnection

    init() throws {
        connection = try SQLiteConnection(location: .memory)
    }

    /// Runs `SELECT sql` with bindings and returns the single value.
    private func value(_ sql: String, _ bindings: StoredValue...) throws -> StoredValue {
        try #require(try connection.query("SELECT " + sql, bindings).first?.first)
    }

    private func flag(_ sql: String, _ bindings: StoredValue...) throws -> Bool? {
        switch try #require(try connection.query("SELECT " + sql, bindings).first?.first) {
        case .integer(let number):
            return number != 0
        default:
            return nil
        }
    }

    @Test func foldMatchesFoundation() throws {
        #expect(try value("strata_fold(?, 1) = strata_fold(?, 1)", .text("ÉCOLE"), .text("école")) == .integer(1))
        #expect(try value("strata_fold(?, 1) = strata_fold(?, 1)", .text("ÉCOLE"), .text("ecole")) == .integer(0))
        #expect(try value("strata_fold(?, 3)", .text("ÉCOLE")) == .text("ecole"))
        for text in ["Straße", "ÅNGSTRÖM", "😀👍🏽", "東京", "İstanbul", ""] {
            for flags in 0...3 {
                let expected = text.folding(
                    options: StrataTextOptions(rawValue: Int64(flags)).compareOptions, locale: nil)
                #expect(try value("strata_fold(?, ?)", .text(text), .integer(Int64(flags))) == .text(expected))
            }
        }
        #expect(try value("strata_fold(NULL, 1)") == .null)
    }

    @Test(arguments: [
        ("Café", "cafe", 3, true), ("Café", "cafe", 1, false), ("Café", "CAFÉ", 1, true),
        ("Café", "Caf", 0, true), ("Café", "caf", 0, false), ("Café", "Fé", 0, false), ("Straße", "STRASSE", 1, true),
        ("I ❤️ 東京", "東京", 0, true), ("😀👍🏽", "👍🏽", 0, true), ("abc", "", 0, true),
    ])
    func containsMatchesFoundation(haystack: String, needle: String, flags: Int64, expected: Bool) throws {
        let options = StrataTextOptions(rawValue: flags).compareOptions
        if !needle.isEmpty {
            #expect((haystack.range(of: needle, options: options) != nil) == expected)
        }
        #expect(try flag("strata_contains(?, ?, ?)", .text(haystack), .text(needle), .integer(flags)) == expected)
    }

    @Test func beginsAndEndsWith() throws {
        #expect(try flag("strata_beginswith(?, ?, 3)", .text("Élan vital"), .text("ELAN")) == true)
        #expect(try flag("strata_beginswith(?, ?, 0)", .text("Élan vital"), .text("vital")) == false)
        #expect(try flag("strata_endswith(?, ?, 1)", .text("Élan vital"), .text("VITAL")) == true)
        #expect(try flag("strata_endswith(?, ?, 0)", .text("Élan vital"), .text("Élan")) == false)
        #expect(try flag("strata_endswith(?, ?, 0)", .text("e\u{301}"), .text("é")) == true)
        #expect(try value("strata_beginswith(NULL, 'a', 0)") == .null)
    }

    @Test(arguments: [
        ("Café au lait", "caf? *", 1, true), ("Café au lait", "caf? *", 0, false),
        ("Café", "Cafe", 2, true), ("abc", "a*", 0, true), ("abc", "*c", 0, true),
        ("abc", "b", 0, false), ("abc", "a?", 0, false), ("abc", "***", 0, true),
        ("😀👍🏽", "??", 0, true), ("😀👍🏽", "?", 0, false), ("a*b", "a\\*b", 0, true),
        ("axb", "a\\*b", 0, false), ("mississippi", "*iss*ppi", 0, true), ("", "*", 0, true),
    ])
    func likeUsesCoreDataWildcards(text: String, pattern: String, flags: Int64, expected: Bool) throws {
        #expect(try flag("strata_like(?, ?, ?)", .text(text), .text(pattern), .integer(flags)) == expected)
    }

    @Test(arguments: [
        ("abc", "a.c", 0, true), ("abcd", "a.c", 0, false), ("xabc", "a.c", 0, false),
        ("ab", "a|ab", 0, true), ("ABC", "a.c", 1, true), ("Café", "cafe", 3, true),
        ("東京", "\\p{Han}+", 0, true), ("2026-11-29", "\\d{4}-\\d{2}-\\d{2}", 0, true),
    ])
    func matchesRequiresTheWholeString(text: String, pattern: String, flags: Int64, expected: Bool) throws {
        #expect(try flag("strata_matches(?, ?, ?)", .text(text), .text(pattern), .integer(flags)) == expected)
    }

    @Test(arguments: ["a)(b", "[unclosed", "(?<", "*"])
    func invalidRegexFailsNamingThePattern(pattern: String) throws {
        let error = try #require(throws: SQLiteError.self) {
            _ = try connection.query("SELECT strata_matches('abc', ?, 0)", [.text(pattern)])
        }
        #expect(error.message.contains(pattern))
        // The connection keeps working after the error.
        #expect(try flag("strata_matches('abc', 'abc', 0)") == true)
    }

    @Test func localizedStandardContainsMatchesFoundation() throws {
        for (haystack, needle) in [
            ("Café Olé", "cafe"), ("Straße", "strasse"), ("東京タワー", "タワー"), ("abc", ""), ("abc", "x"),
        ] {
            let expected = haystack.localizedStandardContains(needle)
            #expect(
                try flag("strata_localized_standard_contains(?, ?)", .text(haystack), .text(needle)) == expected,
                "\(haystack) ∋ \(needle)"
            )
        }
    }

    @Test func compareMatchesFoundation() throws {
        let pairs = [
            ("file2", "file10"), ("a", "B"), ("École", "ecole"), ("ß", "ss"), ("😀", "😁"), ("東", "京"), ("A", "a"),
            ("x", "x"),
        ]
        for (left, right) in pairs {
            for ordering in StrataStringOrdering.allCases {
                let expected = Int64(StrataText.compare(left, right, ordering: ordering).rawValue)
                let actual = try value(
                    "strata_compare(?, ?, ?)", .text(left), .text(right), .integer(ordering.rawValue))
                #expect(actual == .integer(expected), "\(left) vs \(right) with \(ordering)")
            }
        }
        #expect(try value("strata_compare('file2', 'file10', 0)") == .integer(-1))
        #expect(try value("strata_compare('file2', 'file10', 3)") == .integer(1))
        #expect(throws: SQLiteError.self) {
            _ = try connection.query("SELECT strata_compare('a', 'b', 9)", [])
        }
    }

    @Test func decimalArithmetic() throws {
        #expect(try value("strata_decimal_add('0.1', '0.2')") == .text("0.3"))
        #expect(try value("strata_decimal_sub('1', '1.5')") == .text("-0.5"))
        #expect(try value("strata_decimal_mul('1.5', '4')") == .text("6"))
        #expect(try value("strata_decimal_div('1', '4')") == .text("0.25"))
        #expect(try value("strata_decimal_div('1', '0')") == .null)
        #expect(try value("strata_decimal_add('x', '1')") == .null)
    }
}
