import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate literals")
struct FormatLiteralTests {
    typealias F = FormatFixture

    /// The constant on the right of `x == <literal>`.
    private func literal(_ text: String) throws -> FormatValue? {
        guard case .comparison(_, _, .value(let value), _, _) = try F.parse("x == \(text)") else { return nil }
        return value
    }

    @Test func booleansAndNull() throws {
        for (text, value) in [
            ("YES", FormatValue.bool(true)), ("true", .bool(true)), ("NO", .bool(false)),
            ("False", .bool(false)), ("NULL", .null), ("nil", .null),
        ] {
            #expect(try literal(text) == value, "\(text)")
        }
    }

    @Test func numbers() throws {
        let cases: [(String, FormatValue)] = [
            ("42", .int(42)), ("-7", .int(-7)), ("0", .int(0)), ("3.25", .double(3.25)), ("-2.5E-2", .double(-0.025)),
            ("1e3", .double(1000)), ("1E+3", .double(1000)), (".5", .double(0.5)), ("0x1F", .int(31)),
            ("-0x10", .int(-16)), ("0o17", .int(15)), ("0b101", .int(5)),
            ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
        ]
        for (text, value) in cases {
            #expect(try literal(text) == value, "\(text)")
        }
    }

    @Test func stringsWithEveryEscape() throws {
        #expect(try literal(#""double \"quoted\"""#) == .string(#"double "quoted""#))
        #expect(try literal(#"'single \'quoted\''"#) == .string("single 'quoted'"))
        #expect(try literal(#"'it"s'"#) == .string(#"it"s"#))
        #expect(try literal(#""back\\slash""#) == .string(#"back\slash"#))
        #expect(try literal(#""line\nbreak\ttab\rreturn""#) == .string("line\nbreak\ttab\rreturn"))
        #expect(try literal(#""caf\u00E9""#) == .string("café"))
        #expect(try literal(#""\uD83D\uDE00""#) == .string("😀"))
        #expect(try literal("\"naïve ✓\"") == .string("naïve ✓"))
        #expect(try literal(#""100%%""#) == .string("100%"))
        #expect(try literal(#""%@ and $x are literal""#) == .string("%@ and $x are literal"))
    }

    @Test func castsFoldIntoTypedConstants() throws {
        let id = UUID()
        #expect(try literal(#"CAST(0, "NSDate")"#) == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try literal(#"CAST(-1.5, "NSDate")"#) == .date(Date(timeIntervalSinceReferenceDate: -1.5)))
        #expect(try literal(#"CAST("12.50", "NSDecimalNumber")"#) == .decimal(Decimal(string: "12.5") ?? 0))
        #expect(try literal("CAST(\"\(id.uuidString)\", \"NSUUID\")") == .uuid(id))
        #expect(try literal(#"CAST("AQI=", "NSData")"#) == .data(Data([1, 2])))
        #expect(
            try literal(#"CAST("https://example.com/a", "NSURL")"#)
                == .url(try #require(URL(string: "https://example.com/a"))))
        #expect(F.error(#"x == CAST("soon", "NSDate")"#)?.offset == 10)
    }

    @Test func reservedWordsAreCaseInsensitive() throws {
        #expect(
            try F.parse("a == 1 aNd NoT b == 2 oR c iN {1}")
                == .or([
                    .and([F.equals("a", 1), .not(F.equals("b", 2))]),
                    F.compare(F.key("c"), .in, F.value(.array([.int(1)]))),
                ]))
    }
}
