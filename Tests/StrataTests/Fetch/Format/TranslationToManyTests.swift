import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Key paths through to-many relationships without a quantifier (they mean `ANY`), through two to-many
/// relationships, and quantifiers inside a `SUBQUERY`: store results, checked against the evaluator.
@Suite struct TranslationToManyTests {
    /// The names of the projects the store matches, after checking the evaluator agrees.
    private func expectProjects(
        _ format: String, in context: ModelContext, _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let predicate = FormatPredicate(format: format)
        let store = try context.fetch(FetchDescriptor<FormatProject>(predicate: predicate)).map(\.name).sorted()
        #expect(store == expected.sorted(), "\(format)", sourceLocation: sourceLocation)
        let entity = try #require(context.container.schema.entity(for: FormatProject.self))
        let condition = try FormatTranslator.translate(predicate, entity: entity)
        let evaluated = try context.fetch(FetchDescriptor<FormatProject>()).filter {
            try QueryEvaluator(entity: entity, backingData: $0.persistentBackingData).isSatisfied(condition)
        }.map(\.name).sorted()
        #expect(evaluated == store, "evaluator vs store: \(format)", sourceLocation: sourceLocation)
    }

    private func seededWithEmptyProject(_ kind: StoreKind) throws -> ModelContext {
        let context = try TranslationFixture.seededContext(kind)
        context.insert(FormatProject(name: "Empty"))
        try context.save()
        return context
    }

    @Test(arguments: StoreKind.all)
    func plainOperatorOnToManyMeansAny(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        try TranslationFixture.expectTitles("tags.name == 'later'", in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles("tags.name CONTAINS[c] 'ATE'", in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles("tags.name BEGINSWITH 'U'", in: context, ["Café order", "Tax return"])
        try TranslationFixture.expectTitles(
            "tags.name IN %@", ["later", "nothing"], in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles("tags.name BETWEEN {'a', 'm'}", in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles("tags.name != 'Urgent'", in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles(
            "NOT tags.name == 'later'", in: context, ["Café order", "ÉCOLE forms", "école pickup", "file10"])
        // A to-one hop before the to-many one.
        try TranslationFixture.expectTitles("project.tasks.title == 'file10'", in: context, ["Tax return", "file10"])
    }

    @Test func plainOperatorTranslatesLikeAny() throws {
        let entity = try TranslationFixture.taskEntity()
        for format in [
            "tags.name ==[c] 'x'", "tags.name CONTAINS 'x'", "tags.name IN {'x', 'y'}", "tags.name MATCHES 'x.*'",
        ] {
            let plain = try FormatTranslator.translate(FormatPredicate(format: format), entity: entity)
            let any = try FormatTranslator.translate(FormatPredicate(format: "ANY " + format), entity: entity)
            #expect(plain == any, "\(format)")
        }
        // The parsed tree keeps what was written; only translation reads it as ANY.
        #expect(
            FormatPredicate(format: "tags.name == 'x'").expression
                == .comparison(.keyPath(["tags", "name"]), .equal, .value(.string("x")), options: [], quantifier: nil))
    }

    @Test(arguments: StoreKind.all)
    func twoToManyRelationshipsFlatten(_ kind: StoreKind) throws {
        let context = try seededWithEmptyProject(kind)
        try expectProjects("ANY tasks.tags.name == 'later'", in: context, ["Work"])
        try expectProjects("tasks.tags.name == 'Urgent'", in: context, ["Home", "Work"])
        // ALL over the flattened tags: Home's are all Urgent, Work has a later one, Empty has none.
        try expectProjects("ALL tasks.tags.name == 'Urgent'", in: context, ["Empty", "Home"])
        try expectProjects("NONE tasks.tags.name == 'later'", in: context, ["Empty", "Home"])
        let sql = try FormatTranslator.translate(
            FormatPredicate(format: "ANY tasks.tags.name == 'x'"),
            entity: try #require(context.container.schema.entity(for: FormatProject.self))
        ).sql.render(in: SQLiteDialect()).sql
        #expect(
            sql.hasPrefix("EXISTS (SELECT 1 FROM \"FormatTask\"") && sql.contains("AND EXISTS (SELECT 1 FROM"), "\(sql)"
        )
    }

    @Test(arguments: StoreKind.all)
    func quantifiersInsideSubquery(_ kind: StoreKind) throws {
        let context = try seededWithEmptyProject(kind)
        try expectProjects("SUBQUERY(tasks, $t, ANY $t.tags.name == 'later').@count > 0", in: context, ["Work"])
        try expectProjects("SUBQUERY(tasks, $t, $t.tags.name == 'Urgent').@count == 1", in: context, ["Home", "Work"])
        // école pickup has no tags, so ALL holds for it vacuously.
        try expectProjects("SUBQUERY(tasks, $t, ALL $t.tags.name == 'Urgent').@count == 2", in: context, ["Home"])
        try expectProjects(
            "SUBQUERY(tasks, $t, NONE $t.tags.name ==[c] 'URGENT').@count == 1", in: context, ["Home", "Work"])
        try expectProjects("SUBQUERY(tasks, $t, $t.tags.@count > 1).@count > 0", in: context, ["Work"])
        try expectProjects("SUBQUERY(tasks, $t, 'later' IN $t.tags.name).@count > 0", in: context, ["Work"])
    }

    @Test func wholeToManyOperandsAreRefused() throws {
        let entity = try TranslationFixture.taskEntity()
        for format in ["ANY tags == nil", "tags.name == title", "ANY tags.nope == 1"] {
            #expect(throws: StrataError.self, "\(format)") {
                try FormatTranslator.translate(FormatPredicate(format: format), entity: entity)
            }
        }
    }
}
