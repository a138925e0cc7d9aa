import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// The in-memory evaluator on trees that `#Predicate`s translate to, checked against `Predicate.evaluate`,
/// and on SQLite's three-valued logic.
@Suite struct TranslationEvaluatorTests {
    private func expectAgreement(
        _ predicate: Predicate<FormatTask>, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let context = try TranslationFixture.seededContext()
        context.insert(FormatTask(title: "e\u{301}cole pickup", priority: 4))
        try context.save()
        let entity = try #require(context.container.schema.entity(for: FormatTask.self))
        let condition = try PredicateTranslator.translate(predicate, entity: entity)
        let tasks = try context.fetch(FetchDescriptor<FormatTask>())
        let evaluated = try tasks.filter {
            try QueryEvaluator(entity: entity, backingData: $0.persistentBackingData).isSatisfied(condition)
        }.map(\.title).sorted()
        let expected = try tasks.filter { try predicate.evaluate($0) }.map(\.title).sorted()
        #expect(evaluated == expected, sourceLocation: sourceLocation)
        #expect(
            !expected.isEmpty && expected.count < tasks.count, "the predicate must filter",
            sourceLocation: sourceLocation)
    }

    @Test func agreesWithPredicateEvaluate() throws {
        try expectAgreement(#Predicate { $0.title == "école pickup" })
        try expectAgreement(#Predicate { $0.title < "f" })
        try expectAgreement(#Predicate { $0.priority > 2 && !$0.isCompleted })
        try expectAgreement(#Predicate { $0.notes == nil || $0.estimate >= 3 })
        try expectAgreement(#Predicate { $0.title.contains("file") })
        try expectAgreement(#Predicate { ($0.priority * 2 - 1) % 3 == 0 })
    }

    @Test func unknownIsNotAMatch() throws {
        let entity = try TranslationFixture.taskEntity()
        let notes = try #require(entity.property(named: "notes"))
        let evaluator = QueryEvaluator(entity: entity) { $0 == notes.index ? .null : .integer(0) }
        let unknown = QueryExpression.compare(.column("notes"), .greater, .value(.text("")))
        #expect(try evaluator.evaluate(unknown) == .null)
        #expect(try !evaluator.isSatisfied(unknown))
        #expect(try !evaluator.isSatisfied(.not(unknown)))
        #expect(try evaluator.isSatisfied(.or([unknown, .constant(true)])))
        #expect(try evaluator.evaluate(.and([unknown, .constant(true)])) == .null)
        #expect(try evaluator.evaluate(.and([unknown, .constant(false)])) == .integer(0))
        #expect(try evaluator.evaluate(.in(.column("notes"), [.value(.text("a"))])) == .null)
        #expect(
            try evaluator.evaluate(.arithmetic(.divide, .value(.integer(7)), .value(.integer(2)), bounds: nil))
                == .integer(3))
        #expect(
            try evaluator.evaluate(.arithmetic(.divide, .value(.integer(7)), .value(.integer(0)), bounds: nil)) == .null
        )
        #expect(throws: StrataError.self) {
            try evaluator.evaluate(.arithmetic(.add, .value(.integer(120)), .value(.integer(10)), bounds: -128...127))
        }
    }
}
