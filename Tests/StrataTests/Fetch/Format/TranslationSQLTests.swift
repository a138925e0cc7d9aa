import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The exact SQL of each predicate form, with every value bound.
@Suite struct TranslationSQLTests {
    @Test func comparisonsAndModifiers() throws {
        #expect(try TranslationFixture.sql("priority > %d", 2) == (#"("priority" > ?)"#, [.integer(2)]))
        #expect(
            try TranslationFixture.sql("title ==[cd] 'e'") == (
                #"(strata_fold("title", ?) IS strata_fold(?, ?))"#,
                [.integer(3), .text("e"), .integer(3)]
            ))
        #expect(
            try TranslationFixture.sql("title CONTAINS[c] %@", "x") == (
                #"strata_contains("title", ?, ?)"#,
                [.text("x"), .integer(1)]
            ))
        #expect(try TranslationFixture.sql("title ENDSWITH 'x'").sql == #"strata_endswith("title", ?, ?)"#)
        #expect(try TranslationFixture.sql("title LIKE[d] 'x'").sql == #"strata_like("title", ?, ?)"#)
        #expect(try TranslationFixture.sql("title MATCHES 'x'").sql == #"strata_matches("title", ?, ?)"#)
        #expect(try TranslationFixture.sql("notes == nil").sql == #"("notes" IS NULL)"#)
        #expect(try TranslationFixture.sql("notes != nil").sql == #"(NOT ("notes" IS NULL))"#)
    }

    @Test func valuesAreEncodedLikeTheProperty() throws {
        #expect(try TranslationFixture.sql("isCompleted == NO").bindings == [.integer(0)])
        #expect(try TranslationFixture.sql("dueDate < 86400").bindings == [.real(86_400)])
        #expect(try TranslationFixture.sql("estimate < 1").bindings == [.real(1)])
        // A stored NaN (the text 'NaN') sorts above every number: > and >= bound the Double by +infinity.
        #expect(
            try TranslationFixture.sql("estimate > 1") == (
                #"(("estimate" > ?) AND ("estimate" <= ?))"#, [.real(1), .real(.infinity)]
            ))
        #expect(try TranslationFixture.sql("cost == 1.5").bindings == [.text("1.5")])
        #expect(try TranslationFixture.sql("status == 'done'").bindings == [.text("done")])
        let code = UUID()
        #expect(try TranslationFixture.sql("code == %@", code.uuidString).bindings == [code.storedValue])
    }

    @Test func listsRangesAndLogic() throws {
        #expect(
            try TranslationFixture.sql("priority IN {1, 2}") == (
                #"("priority" IN (?, ?))"#, [.integer(1), .integer(2)]
            ))
        #expect(try TranslationFixture.sql("notes IN {nil, 'a'}").sql == #"(("notes" IS NULL) OR ("notes" IN (?)))"#)
        #expect(try TranslationFixture.sql("priority BETWEEN {1, 3}").sql == #"("priority" BETWEEN ? AND ?)"#)
        #expect(try TranslationFixture.sql("TRUEPREDICATE OR NOT FALSEPREDICATE").sql == "(1 OR (NOT 0))")
        // Division is floating point, as NSExpression's is.
        #expect(
            try TranslationFixture.sql("priority ** 2 > 1") == (
                #"(strata_power("priority", ?) > ?)"#, [.integer(2), .integer(1)]
            ))
        #expect(
            try TranslationFixture.sql("priority / 2 > 1") == (
                #"((("priority" * ?) / ?) > ?)"#, [.real(1), .integer(2), .integer(1)]
            ))
    }

    @Test func relationshipsBecomeCorrelatedSubqueries() throws {
        #expect(
            try TranslationFixture.sql("project.name == 'Home'").sql
                == #"((SELECT "t1"."name" FROM "FormatProject" AS "t1" WHERE "t1"."Z_PK" = "FormatTask"."project") IS ?)"#
        )
        #expect(try TranslationFixture.sql("tags.@count > 1").sql.hasPrefix(#"((SELECT count(*) FROM "#))
        #expect(try TranslationFixture.sql("ANY tags.name == 'x'").sql.hasPrefix("EXISTS (SELECT 1 FROM "))
    }
}
