import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate errors")
struct FormatErrorTests {
    typealias F = FormatFixture

    struct Case: Sendable, CustomStringConvertible {
        let format: String
        let kind: PredicateFormatError.Kind
        let offset: Int
        let token: String
        var description: String { format }
    }

    static let corpus: [Case] = [
        Case(format: "title CONTAIN \"a\"", kind: .unexpectedToken, offset: 6, token: "CONTAIN"),
        Case(format: "title CONTAINS[x] \"a\"", kind: .unknownOperator, offset: 15, token: "x"),
        Case(format: "title", kind: .unexpectedEnd, offset: 5, token: ""),
        Case(format: "", kind: .unexpectedEnd, offset: 0, token: ""),
        Case(format: "a ==", kind: .unexpectedEnd, offset: 4, token: ""),
        Case(format: "a == 1 b == 2", kind: .unexpectedToken, offset: 7, token: "b"),
        Case(format: "a == 'open", kind: .unterminatedString, offset: 5, token: "'"),
        Case(format: "a == \"x\\q\"", kind: .invalidEscape, offset: 7, token: "\\q"),
        Case(format: "a == \"\\u12\"", kind: .invalidEscape, offset: 6, token: "\\u"),
        Case(format: "a == 12abc", kind: .invalidNumber, offset: 5, token: "12abc"),
        Case(format: "a == 99999999999999999999", kind: .invalidNumber, offset: 5, token: "99999999999999999999"),
        Case(format: "a == 1e999", kind: .invalidNumber, offset: 5, token: "1e999"),
        Case(format: "a == %x", kind: .unknownFormatSpecifier, offset: 5, token: "%x"),
        Case(format: "a == %%", kind: .unknownFormatSpecifier, offset: 5, token: "%%"),
        Case(format: "(a == 1", kind: .unexpectedEnd, offset: 7, token: ""),
        Case(format: "a == 1)", kind: .unexpectedToken, offset: 6, token: ")"),
        Case(format: "a == 1 == 2", kind: .unexpectedToken, offset: 7, token: "=="),
        Case(format: "a == 1 AND", kind: .unexpectedEnd, offset: 10, token: ""),
        Case(format: "AND a == 1", kind: .unexpectedToken, offset: 0, token: "AND"),
        Case(
            format: "tasks.@distinctUnionOfObjects.x > 1", kind: .unknownOperator, offset: 6,
            token: "@distinctUnionOfObjects"),
        Case(format: "tasks.@count.x > 1", kind: .unknownOperator, offset: 13, token: "x"),
        Case(format: "size == 3", kind: .unknownOperator, offset: 0, token: "size"),
        Case(format: "foo(1) == 3", kind: .unknownOperator, offset: 0, token: "foo"),
        Case(format: "a BETWEEN {1}", kind: .unexpectedToken, offset: 10, token: "{"),
        Case(format: "ANY tags", kind: .unexpectedEnd, offset: 8, token: ""),
        Case(format: "SUBQUERY(tasks, t, t.done == YES).@count > 0", kind: .unexpectedToken, offset: 16, token: "t"),
        Case(format: "a == 1 ; DROP", kind: .unexpectedToken, offset: 7, token: ";"),
        Case(format: "t == \"naïve\" AND é == 2", kind: .unexpectedToken, offset: 18, token: "é"),
        Case(format: "a == #", kind: .unexpectedToken, offset: 5, token: "#"),
        Case(format: "title MATCHES '('", kind: .invalidRegularExpression, offset: 14, token: "'('"),
        Case(
            format: "ANY tags.name MATCHES[cd] \"[z-a]\"", kind: .invalidRegularExpression, offset: 26,
            token: "\"[z-a]\""),
    ]

    @Test("error corpus: kind, offset and token", arguments: corpus)
    func corpusEntry(entry: Case) throws {
        let error = try #require(F.error(entry.format))
        #expect(error.kind == entry.kind, "\(error)")
        #expect(error.offset == entry.offset, "\(error)")
        #expect(error.token == entry.token, "\(error)")
        #expect(error.format == entry.format)
    }

    @Test func descriptionShowsTheLineAndACaret() throws {
        let error = try #require(F.error("title CONTAIN \"a\""))
        #expect(
            error.description == """
                Expected a comparison operator after 'title' at offset 6
                  title CONTAIN "a"
                        ^
                """)
        #expect(error.expected == "a comparison operator")
    }

    @Test func caretCountsCharactersNotBytes() throws {
        let error = try #require(F.error("t == \"naïve\" AND é == 2"))
        #expect(error.offset == 18)
        #expect(error.column == 17)
        #expect(
            error.description.hasSuffix(
                """
                  t == "naïve" AND é == 2
                                   ^
                """))
    }

    @Test func caretShowsOnlyTheOffendingLineAndClipsLongLines() throws {
        let error = try #require(F.error("a == 1\nAND b == )"))
        #expect(
            error.description == """
                Expected a value, key path or expression after '==' at offset 16
                  AND b == )
                           ^
                """)
        let long = String(repeating: "a == 1 AND ", count: 20) + "b == )"
        let clipped = try #require(F.error(long)).description.split(separator: "\n")
        #expect(clipped[1].hasPrefix("  …") && clipped[1].count <= 2 + 1 + 40 + 1)
        #expect(clipped[2].count == clipped[1].count)
    }

    @Test func parseThrowsWhatInitKeeps() throws {
        let kept = try #require(FormatPredicate(format: "a ==").error)
        #expect(throws: kept) { try FormatPredicate.parse(format: "a ==") }
        #expect(FormatPredicate(format: "a ==").predicateFormat == "a ==")
    }
}
