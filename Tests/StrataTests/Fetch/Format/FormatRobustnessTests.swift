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

    /// How many formats ``randomTokenSoupNeverCrashesAndRoundTripsWhenItParses()`` tries, and how many of them
    /// parse: the generator's seed fixes both.
    static let (soupFormats, soupFormatsParsing) = (4_000, 2_294)

    /// The tokens of the soup: operands, comparisons and connectives, and tokens in no place of their own.
    static let operands = [
        "a", "b.c", "tasks.@count", "x.@avg.y", "$v", "$t.k", "SELF", "#size", "1", "-2.5e3", "0x1F", "'s'",
        "\"q\\\"\"", "YES", "NULL", "%@", "%K", "%d", "now()", "{1, 's'}",
    ]
    static let comparisons = ["==", "!=", "<", ">=", "=<", "BEGINSWITH", "CONTAINS[cd]", "LIKE", "IN", "BETWEEN"]
    static let connectives = ["AND", "OR", "&&", "||"]
    static let strays = [
        "ANY", "ALL", "NONE", "NOT", "!", "(", ")", "{", "}", ",", "+", "-", "*", "/", "SUBQUERY(", "$x,", "[c]",
        ".", "CAST(", "TRUEPREDICATE",
    ]

    /// A format shaped like a predicate (comparisons joined by connectives, some negated, quantified or in
    /// parentheses) with an argument for each `%` specifier, which one time in three has a token dropped or a
    /// stray token put in, and one time in four its tokens run together: some parse, some are refused. A format
    /// neither changed nor run together is well formed, and must parse.
    static func soupFormat(
        _ generator: inout SeededGenerator
    ) -> (format: String, arguments: [any Sendable], wellFormed: Bool) {
        func pick(_ tokens: [String]) -> String { tokens[Int.random(in: 0..<tokens.count, using: &generator)] }
        var tokens: [String] = []
        for index in 0..<Int.random(in: 1...3, using: &generator) {
            if index > 0 { tokens.append(pick(connectives)) }
            let comparison = pick(comparisons)
            var terms = [pick(operands), comparison, comparison == "BETWEEN" ? "{1, 5}" : pick(operands)]
            switch Int.random(in: 0..<6, using: &generator) {
            case 0 where comparison != "BETWEEN": terms.insert(pick(["ANY", "ALL", "NONE"]), at: 0)
            case 1: terms = ["NOT", "("] + terms + [")"]
            case 2: terms = ["("] + terms + [")"]
            default: break
            }
            tokens += terms
        }
        let mutation = Int.random(in: 0..<6, using: &generator)
        switch mutation {
        case 0: tokens.remove(at: Int.random(in: 0..<tokens.count, using: &generator))
        case 1: tokens.insert(pick(strays), at: Int.random(in: 0...tokens.count, using: &generator))
        default: break
        }
        let arguments: [any Sendable] = tokens.compactMap { token in
            switch token {
            case "%K": "title"
            case "%@": "s"
            case "%d": 1
            default: nil
            }
        }
        let separator = Int.random(in: 0..<4, using: &generator) == 0 ? "" : " "
        return (tokens.joined(separator: separator), arguments, mutation > 1 && separator == " ")
    }

    @Test func randomTokenSoupNeverCrashesAndRoundTripsWhenItParses() throws {
        var generator = SeededGenerator(seed: 42)
        var parsed = 0
        for _ in 0..<Self.soupFormats {
            let (format, arguments, wellFormed) = Self.soupFormat(&generator)
            let predicate = FormatPredicate(format: format, argumentArray: arguments)
            guard let expression = predicate.expression else {
                let error = try #require(predicate.error, "\(format) neither parses nor is refused")
                #expect(!error.description.isEmpty, "\(format)")
                #expect(!wellFormed, "\(format) is refused: \(error)")
                continue
            }
            parsed += 1
            let reparsed = FormatPredicate(format: expression.predicateFormat)
            #expect(reparsed == predicate, "\(format) → \(expression.predicateFormat)")
        }
        // Which of the seed's formats parse is fixed: a change in the count means the grammar changed.
        #expect(parsed == Self.soupFormatsParsing)
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
