import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Error descriptions stay short whatever the input: long quoted text (SQL, predicates, literals,
/// patterns) is cut in the middle with a note of how much was left out.
@Suite struct FormatErrorLengthTests {
    @Test func elidingKeepsBothEndsAndCountsWhatWasLeftOut() {
        let text =
            String(repeating: "a", count: 10) + String(repeating: "b", count: 4_980) + String(repeating: "c", count: 10)
        #expect(text.elided(limit: 20) == "aaaaaaaaaa … (4980 characters left out) … cccccccccc")
        #expect("short".elided(limit: 20) == "short")
        #expect(String(repeating: "é", count: 20).elided(limit: 20) == String(repeating: "é", count: 20))
    }

    @Test func parseErrorsQuotingHugeInputAreBounded() throws {
        let number = try #require(FormatPredicate(format: "a == " + String(repeating: "9", count: 500_000)).error)
        #expect(number.kind == .invalidNumber)
        #expect(number.description.count < 2_200 && number.description.contains("characters left out"))
        let pattern = try #require(
            FormatPredicate(format: "a MATCHES %@", "(" + String(repeating: "x", count: 500_000)).error)
        #expect(pattern.kind == .invalidRegularExpression)
        #expect(pattern.description.count < 2_200 && pattern.description.contains("characters left out"))
    }

    @Test func translationErrorsOnHugePredicatesAreBounded() throws {
        let list = Array(0..<7_600)
        let format =
            (0..<496).map { "priority == \($0)" }.joined(separator: " OR ")
            + " OR priority IN %@ OR priority IN %@ OR estimate IN %@ OR priority IN %@"
        let predicate = FormatPredicate(format: format, list, list, list, list)
        let error = #expect(throws: StrataError.self) {
            try FormatTranslator.translate(predicate, entity: try TranslationFixture.taskEntity())
        }
        let description = try #require(error?.description)
        #expect(description.count < 2_500, "\(description.count) characters")
        #expect(description.contains("characters left out"))
        #expect(description.hasSuffix("it binds 30896 values; Strata's limit is 30000 (SQLite's is 32766)"))
    }

    @Test func sqliteErrorsShowTheEndsOfLongSQL() {
        let sql =
            "SELECT " + Array(repeating: "\"title\"", count: 100_000).joined(separator: ", ") + " FROM \"FormatTask\""
        let description = StrataError.storeFailure(
            operation: "fetch FormatTask",
            reason: SQLiteError(extendedCode: 1, message: "boom", sql: sql).description
        ).description
        #expect(description.count < 2_500)
        #expect(
            description.hasPrefix(
                "The store failed to fetch FormatTask: SQLite error 1: boom — while running `SELECT \"title\""))
        #expect(description.hasSuffix("\"title\" FROM \"FormatTask\"`"))
        #expect(description.contains("characters left out"))
    }
}
