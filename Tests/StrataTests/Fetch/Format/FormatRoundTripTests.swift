import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate round trip")
struct FormatRoundTripTests {
    static let corpus = [
        "isCompleted == NO",
        "a = 1 && b <> 2 || !(c =< 3) AND d => 4",
        "title CONTAINS[c] 'x' OR content BEGINSWITH[cd] \"y\" OR name ENDSWITH[d] 'z'",
        "name LIKE[c] 'a*b?' AND code MATCHES '[A-Z]{3}'",
        "(a == 1 AND b == 2) AND (c == 3 OR (d == 4 OR e == 5))",
        "NOT (a == 1 OR b == 2) AND NOT NOT c == 3",
        "ANY tags.name ==[c] 'work' AND ALL tasks.done == YES AND NONE tags.name == NIL AND SOME x.y > 1",
        "age BETWEEN {18, 65} AND score BETWEEN {minScore, maxScore}",
        "status IN {'a', \"b\", 1, 2.5, -3, YES, NULL} AND SELF IN {} AND 'x' IN tags",
        "tasks.@count > 2 AND tasks.@avg.priority >= 1.5 AND tasks.@sum.hours < 1e10 AND @count == 0",
        "SUBQUERY(tasks, $t, $t.isCompleted == NO AND $t.priority > 1).@count > 0",
        "SUBQUERY(projects, $p, SUBQUERY($p.tasks, $t, $t.tags.@count > 1).@count > 0).@count == 1",
        "a + b * 2 > (c - 1) / 4 AND -a < - 5 AND a - -5 == 0 AND -(a + 1) == 2",
        "dueDate < now() AND lowercase(name) == 'x' AND abs(delta) <= 0.001",
        "#size == 3 AND box.#in == 'x' AND SELF.name == 'n'",
        "text == \"quote \\\" backslash \\\\ newline \\n tab \\t unicode \\u00E9 control \\u0001 percent %%\"",
        "priority >= $MIN AND status IN {$A, 'b'}",
        "x == 0x1F AND y == -9223372036854775808 AND z == 9223372036854775807 AND w == 1.7976931348623157e308",
        "d == CAST(123.25, \"NSDate\") AND m == CAST(\"12.50\", \"NSDecimalNumber\") AND u == CAST(\"https://e.x/a?b=c\", \"NSURL\")",
        "TRUEPREDICATE OR FALSEPREDICATE",
    ]

    @Test("parse(print(x)) == x", arguments: corpus)
    func roundTrip(format: String) throws {
        let predicate = try FormatPredicate.parse(format: format)
        let printed = predicate.predicateFormat
        let reparsed = try FormatPredicate.parse(format: printed)
        #expect(reparsed == predicate, "\(printed)")
        #expect(reparsed.predicateFormat == printed)
    }

    @Test func argumentsRoundTripThroughCasts() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12_345.678)
        let id = UUID()
        let predicate = try FormatPredicate.parse(
            format: "a == %@ AND b == %@ AND c == %@ AND d IN %@ AND e == %@ AND f == %@ AND g == %@",
            date, id, Decimal(string: "-3.14") ?? 0, [1.5, 2], Data([0, 1, 2, 250]), "50% off", Int64.min)
        #expect(try FormatPredicate.parse(format: predicate.predicateFormat) == predicate)
    }

    @Test func canonicalSpelling() throws {
        let predicate = try FormatPredicate.parse(format: "a = 1 && b <> 'x' || !c =< 3 and d in {1}")
        #expect(predicate.predicateFormat == #"a == 1 AND b != "x" OR NOT c <= 3 AND d IN {1}"#)
        #expect(predicate.description == predicate.predicateFormat)
    }
}
