import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Key paths through relationships, quantifiers, aggregates and subqueries, in a real store and checked
/// against the in-memory evaluator.
@Suite struct TranslationRelationshipTests {
    @Test(arguments: StoreKind.all)
    func toOneKeyPaths(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        try TranslationFixture.expectTitles("project.name == %@", "Home", in: context, ["Café order", "école pickup"])
        try TranslationFixture.expectTitles("project.name BEGINSWITH[c] 'w'", in: context, ["Tax return", "file10"])
        try TranslationFixture.expectTitles("project == nil", in: context, ["ÉCOLE forms", "file2"])
        try TranslationFixture.expectTitles(
            "project != nil AND project.name != 'Home'", in: context, ["Tax return", "file10"])
    }

    @Test(arguments: StoreKind.all)
    func quantifiers(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        try TranslationFixture.expectTitles("ANY tags.name ==[c] 'urgent'", in: context, ["Café order", "Tax return"])
        try TranslationFixture.expectTitles("SOME tags.name == 'later'", in: context, ["Tax return", "file2"])
        try TranslationFixture.expectTitles(
            "NONE tags.name == 'later'", in: context, ["Café order", "ÉCOLE forms", "école pickup", "file10"])
        // ALL holds vacuously for tasks without tags, as in Core Data.
        try TranslationFixture.expectTitles(
            "ALL tags.name == 'Urgent'", in: context, ["Café order", "ÉCOLE forms", "école pickup", "file10"])
        try TranslationFixture.expectTitles("'later' IN tags.name", in: context, ["Tax return", "file2"])
    }

    @Test(arguments: StoreKind.all)
    func countsAndSubqueries(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        try TranslationFixture.expectTitles("tags.@count >= 2", in: context, ["Tax return"])
        try TranslationFixture.expectTitles("tags.@count == 0", in: context, ["ÉCOLE forms", "école pickup", "file10"])
        try TranslationFixture.expectTitles(
            "SUBQUERY(tags, $t, $t.name BEGINSWITH 'l').@count > 0", in: context, ["Tax return", "file2"])
    }

    @Test(arguments: StoreKind.all)
    func aggregatesOverToMany(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        func names(_ format: String, _ arguments: any Sendable...) throws -> [String] {
            let predicate = FormatPredicate(format: format, argumentArray: arguments)
            return try context.fetch(FetchDescriptor<FormatProject>(predicate: predicate)).map(\.name).sorted()
        }
        #expect(try names("tasks.@sum.priority > 3") == ["Work"])
        #expect(try names("tasks.@avg.estimate < 1") == ["Home"])
        #expect(try names("tasks.@max.priority == 5") == ["Work"])
        #expect(try names("tasks.@min.dueDate < %@", TranslationFixture.date(3)) == ["Home"])
        #expect(try names("ANY tasks.isCompleted == YES") == ["Work"])
        #expect(try names("tasks.@count == 2") == ["Home", "Work"])
    }

    @Test(arguments: StoreKind.all)
    func emptySumIsZero(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        context.insert(FormatProject(name: "Empty"))
        try context.save()
        let predicate = FormatPredicate(format: "tasks.@sum.priority == 0")
        #expect(try context.fetch(FetchDescriptor<FormatProject>(predicate: predicate)).map(\.name) == ["Empty"])
    }

    @Test func wholeToManyComparisonIsRefused() throws {
        let entity = try TranslationFixture.taskEntity()
        let error = #expect(throws: StrataError.self) {
            try FormatTranslator.translate(FormatPredicate(format: "tags == nil"), entity: entity)
        }
        #expect(error?.description.contains("FormatTask: tags == %@: tags is a to-many relationship") == true)
    }
}
