import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate robustness")
struct FormatRobustnessTests {
    typealias F = FormatFixture

    @Test func deepParenthesesAreRefused() {
        let format = String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        let error = F.error(format)
        #expect(error?.kind == .tooDeeplyNested)
        #expect(error?.offset == FormatParser.maximumDepth)
    }

    @Test func deepNegationsAndMinusesAreRefused() {
        #expect(F.error(String(repeating: "NOT ", count: 10_000) + "a == 1")?.kind == .tooDeeplyNested)
        #expect(F.error(String(repeating: "!", count: 10_000) + "a == 1")?.kind == .tooDeeplyNested)
        #expect(F.error("a == " + String(repeating: "-", count: 10_000) + "1")?.kind == .tooDeeplyNested)
        #expect(F.error("a IN " + String(repeating: "{", count: 10_000))?.kind == .tooDeeplyNested)
        #expect(F.error("a == 1" + String(repeating: " + 1", count: 10_000))?.kind == .tooDeeplyNested)
    }

    @Test func nestingJustUnderTheCapParsesAndPrints() throws {
        let depth = FormatParser.maximumDepth - 1
        let format = String(repeating: "NOT (", count: depth / 2) + "a == 1" + String(repeating: ")", count: depth / 2)
        let predicate = try FormatPredicate.parse(format: format)
        #expect(try FormatPredicate.parse(format: predicate.predicateFormat) == predicate)
        #expect(predicate.withSubstitutionVariables(["x": 1]) == predicate)
    }

    @Test func inputOverOneMegabyteIsRefused() {
        let format = "a == '" + String(repeating: "x", count: FormatParser.maximumLength) + "'"
        #expect(F.error(format)?.kind == .inputTooLong)
    }

    @Test func longFlatInputParsesInLinearTime() throws {
        let format = Array(repeating: "a == 1", count: 25_000).joined(separator: " OR ")
        // The parser alone: a FormatPredicate refuses an OR this long (FormatLimitTests).
        guard case .or(let members) = try FormatParser.parse(format: format, arguments: []) else {
            Issue.record("expected an OR")
            return
        }
        #expect(format.utf8.count < FormatParser.maximumLength)
        #expect(members.count == 25_000)
    }

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator(seed: 0x5EED)
        let deadline = Date().addingTimeInterval(0.4)
        var runs = 0
        while Date() < deadline {
            let length = Int.random(in: 0...64, using: &generator)
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let predicate = FormatPredicate(format: String(decoding: bytes, as: UTF8.self))
            if let error = predicate.error {
                _ = (error.description, error.column)
            } else {
                _ = predicate.predicateFormat
            }
            runs += 1
        }
        #expect(runs > 100)
    }

    @Test func randomTokenSoupNeverCrashesAndRoundTripsWhenItParses() throws {
        let soup = [
            "a", "b.c", "tasks.@count", "x.@avg.y", "$v", "$t.k", "SELF", "#size", "==", "!=", "<", ">=", "=<",
            "BEGINSWITH", "CONTAINS[cd]", "LIKE", "IN", "BETWEEN", "AND", "OR", "NOT", "&&", "||", "!", "ANY",
            "ALL", "NONE", "(", ")", "{", "}", ",", "+", "-", "*", "/", "1", "-2.5e3", "0x1F", "'s'", "\"q\\\"\"",
            "YES", "NULL", "TRUEPREDICATE", "%@", "%K", "%d", "SUBQUERY(", "$x,", "now()", "[c]", ".", "CAST(",
        ]
        var generator = SeededGenerator(seed: 42)
        let deadline = Date().addingTimeInterval(0.4)
        var parsed = 0
        while Date() < deadline {
            let count = Int.random(in: 1...12, using: &generator)
            let format = (0..<count).map { _ in soup[Int.random(in: 0..<soup.count, using: &generator)] }
                .joined(separator: Bool.random(using: &generator) ? " " : "")
            let predicate = FormatPredicate(format: format, "k", 1)
            guard let expression = predicate.expression else {
                _ = predicate.error?.description
                continue
            }
            parsed += 1
            let reparsed = FormatPredicate(format: expression.predicateFormat)
            #expect(reparsed == predicate, "\(format) → \(expression.predicateFormat)")
        }
        #expect(parsed >= 0)
    }
}

/// A small deterministic generator (SplitMix64) so fuzz failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
