import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Format predicate variables and subqueries")
struct FormatVariableTests {
    typealias F = FormatFixture

    @Test func substitutionReplacesFreeVariables() throws {
        let template = FormatPredicate(format: "priority >= $MIN AND status IN {$A, 'b'}")
        #expect(
            template.expression
                == .and([
                    F.compare(F.key("priority"), .greaterOrEqual, .variable("MIN")),
                    F.compare(F.key("status"), .in, .aggregate([.variable("A"), F.value(.string("b"))])),
                ]))
        let filled = template.withSubstitutionVariables(["MIN": 2, "A": "a", "UNUSED": 0])
        #expect(
            try filled.resolvedExpression()
                == .and([
                    F.compare(F.key("priority"), .greaterOrEqual, F.value(.int(2))),
                    F.compare(F.key("status"), .in, F.value(.array([.string("a"), .string("b")]))),
                ]))
    }

    @Test func unboundVariablesFailAtResolutionWithTheirPosition() throws {
        let template = FormatPredicate(format: "a == 1 AND b == $LIMIT")
        let error = try #require(throws: PredicateFormatError.self) { try template.validated() }
        #expect(error.kind == .unboundVariable(name: "LIMIT"))
        #expect(error.offset == 16)
        #expect(template.withSubstitutionVariables(["OTHER": 1]).error == nil)
        #expect(throws: PredicateFormatError.self) { try template.withSubstitutionVariables(["OTHER": 1]).validated() }
    }

    @Test func substitutionRejectsUnsupportedValues() {
        struct Opaque: Sendable {}
        let failed = FormatPredicate(format: "a == $X").withSubstitutionVariables(["X": Opaque()])
        #expect(failed.error?.kind == .variableTypeMismatch(name: "X", got: "Opaque"))
        #expect(failed.error?.offset == 5)
    }

    @Test func substitutionTakesEveryArgumentKind() throws {
        let date = Date(timeIntervalSinceReferenceDate: 100)
        let template = FormatPredicate(format: "due < $DATE AND status IN $STATES AND owner == $OWNER")
        let filled = template.withSubstitutionVariables([
            "DATE": date, "STATES": Set([2]), "OWNER": Optional<String>.none as any Sendable,
        ])
        #expect(
            try filled.resolvedExpression()
                == .and([
                    F.compare(F.key("due"), .less, F.value(.date(date))),
                    F.compare(F.key("status"), .in, F.value(.array([.int(2)]))),
                    F.compare(F.key("owner"), .equal, F.value(.null)),
                ]))
    }

    @Test func subqueryBindsItsVariable() throws {
        let subquery = FormatOperand.subquery(
            collection: F.key("tasks"), variable: "t",
            predicate: .and([
                F.compare(.variableKeyPath("t", ["isCompleted"]), .equal, F.value(.bool(false))),
                F.compare(.variableKeyPath("t", ["priority"]), .greater, .variable("P")),
            ]))
        let template = FormatPredicate(
            format: "SUBQUERY(tasks, $t, $t.isCompleted == NO AND $t.priority > $P).@count > 0")
        #expect(
            template.expression == F.compare(.collectionOperation(subquery, .count, []), .greater, F.value(.int(0))))
        #expect(throws: PredicateFormatError.self) { try template.validated() }
        // Substituting "t" must not touch the subquery's own variable.
        let filled = template.withSubstitutionVariables(["P": 1, "t": 99])
        let expression = try filled.resolvedExpression()
        #expect(
            expression.predicateFormat
                == "SUBQUERY(tasks, $t, $t.isCompleted == NO AND $t.priority > 1).@count > 0")
    }

    @Test func nestedSubqueriesAndVariableCollections() throws {
        let expression = try F.parse(
            "SUBQUERY(projects, $p, SUBQUERY($p.tasks, $t, $t.done == YES).@count > 0).@count == 1")
        #expect(
            expression.predicateFormat
                == "SUBQUERY(projects, $p, SUBQUERY($p.tasks, $t, $t.done == YES).@count > 0).@count == 1")
        #expect(F.error("SUBQUERY(tasks, $t, $q.done == YES).@count > 0") == nil)
        #expect(throws: PredicateFormatError.self) { try F.parse("SUBQUERY(tasks, $t, $q.done == YES).@count > 0") }
    }
}
