import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate arguments")
struct FormatArgumentTests {
    typealias F = FormatFixture

    private enum Status: String { case open }
    private enum Level: Int { case high = 3 }

    /// The constant `%@` turned `argument` into.
    private func bound(_ argument: any Sendable, specifier: String = "%@") throws -> FormatValue? {
        guard case .comparison(_, _, .value(let value), _, _) = try F.parse("x == \(specifier)", argument) else {
            return nil
        }
        return value
    }

    @Test func everyScalarKind() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let id = UUID()
        let url = URL(string: "https://example.com") ?? URL(fileURLWithPath: "/")
        let cases: [(any Sendable, FormatValue)] = [
            (true, .bool(true)), (Int(-3), .int(-3)), (Int8(8), .int(8)), (Int16(16), .int(16)),
            (Int32(32), .int(32)), (Int64(64), .int(64)), (UInt(1), .int(1)), (UInt8(2), .int(2)),
            (UInt16(3), .int(3)), (UInt32(4), .int(4)), (UInt64(5), .int(5)), (1.5, .double(1.5)),
            (Float(0.5), .double(0.5)), (Decimal(string: "9.99") ?? 0, .decimal(Decimal(string: "9.99") ?? 0)),
            ("text", .string("text")), ("sub text".dropFirst(4), .string("text")), (date, .date(date)),
            (id, .uuid(id)), (Data([0xFF]), .data(Data([0xFF]))), (url, .url(url)),
            (Status.open, .string("open")), (Level.high, .int(3)), (Optional<Int>.none as any Sendable, .null),
            (Optional(7) as any Sendable, .int(7)),
            ([1, 2], .array([.int(1), .int(2)])), (Set(["s"]), .array([.string("s")])),
            ([[1], [2]], .array([.array([.int(1)]), .array([.int(2)])])),
        ]
        for (argument, expected) in cases {
            #expect(try bound(argument) == expected, "\(argument)")
        }
    }

    @Test func printfStyleSpecifiers() throws {
        #expect(try bound(5, specifier: "%d") == .int(5))
        #expect(try bound(Int64.max, specifier: "%ld") == .int(.max))
        #expect(try bound(true, specifier: "%i") == .int(1))
        #expect(try bound(2.5, specifier: "%f") == .double(2.5))
        #expect(try bound(2, specifier: "%lf") == .double(2))
        #expect(
            F.error("x == %d", "five")?.kind
                == .argumentTypeMismatch(index: 0, expected: "an integer that fits Int64", got: "String"))
        #expect(
            F.error("x == %f", "five")?.kind
                == .argumentTypeMismatch(index: 0, expected: "a floating-point number", got: "String"))
        #expect(F.error("x == %d", UInt64.max) != nil)
    }

    @Test func keyPathArguments() throws {
        #expect(
            try F.parse("%K == %@", "author.name", "Ana")
                == F.compare(F.key("author.name"), .equal, F.value(.string("Ana"))))
        #expect(
            try F.parse("%K > 1", "tasks.@count")
                == F.compare(.collectionOperation(F.key("tasks"), .count, []), .greater, F.value(.int(1))))
        let error = try #require(F.error("a == %@ AND %K == 1", 1, 42))
        #expect(error.kind == .argumentTypeMismatch(index: 1, expected: "String (a key path)", got: "Int"))
        #expect(error.offset == 12)
        #expect(error.token == "%K")
        #expect(
            F.error("%K == 1", "")?.kind
                == .argumentTypeMismatch(
                    index: 0, expected: "a key path without empty components", got: "an empty String"))
        #expect(
            F.error("%K == 1", "a..b")?.kind
                == .argumentTypeMismatch(index: 0, expected: "a key path without empty components", got: "\"a..b\""))
    }

    @Test func argumentCountMustMatch() throws {
        let missing = try #require(F.error("a == %@ AND b == %@", 1))
        #expect(missing.kind == .missingArgument(index: 1))
        #expect(missing.offset == 17)
        let extra = try #require(F.error("a == %@", 1, 2))
        #expect(extra.kind == .extraArguments(expected: 1, got: 2))
        #expect(extra.offset == 7)
    }

    @Test func unsupportedValuesAreNamed() throws {
        struct Opaque: Sendable {}
        #expect(
            F.error("a == %@", Opaque())?.kind
                == .argumentTypeMismatch(
                    index: 0, expected: "a Bool, number, String, Date, UUID, Data, URL, array or nil", got: "Opaque"))
        #expect(F.error("a == %@", Double.nan) != nil)
        #expect(F.error("a == %@", ["k": 1]) != nil)
    }

    @Test func injectionAttemptsStayValuesAndKeys() throws {
        let value = "x'; DROP TABLE t; --"
        #expect(try F.parse("title == %@", value) == F.compare(F.key("title"), .equal, F.value(.string(value))))
        #expect(
            try F.parse("title == \"x'; DROP TABLE t; --\"")
                == F.compare(F.key("title"), .equal, F.value(.string(value))))
        #expect(try F.parse("%K == 1", "a; DROP") == F.compare(.keyPath(["a; DROP"]), .equal, F.value(.int(1))))
    }
}
