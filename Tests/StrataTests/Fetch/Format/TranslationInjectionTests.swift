import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Text from users never becomes SQL: string literals and arguments are bound, and `%K` names are checked
/// against the schema.
@Suite struct TranslationInjectionTests {
    static let hostile = [
        "'; DROP TABLE \"FormatTask\"; --",
        "x' OR '1'='1",
        "\" OR 1=1 --",
        "title\"); DELETE FROM \"FormatTask\"; --",
        "%' OR title LIKE '%",
    ]

    @Test(arguments: StoreKind.all, hostile) func argumentsAreBound(_ kind: StoreKind, _ text: String) throws {
        let context = try TranslationFixture.seededContext(kind)
        #expect(try TranslationFixture.titles(FormatPredicate(format: "title == %@", text), in: context).isEmpty)
        #expect(
            try TranslationFixture.titles(FormatPredicate(format: "title CONTAINS[c] %@", text), in: context).isEmpty)
        let (sql, bindings) = try TranslationFixture.sql("title == %@", text)
        #expect(sql == #"("title" IS ?)"#)
        #expect(bindings == [.text(text)])
        #expect(try context.fetchCount(FetchDescriptor<FormatTask>()) == 6)
    }

    @Test(arguments: StoreKind.all)
    func literalsInTheFormatAreBound(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let predicate = FormatPredicate(format: #"title == "x\" OR 1=1; DROP TABLE FormatTask; --""#)
        #expect(try TranslationFixture.titles(predicate, in: context).isEmpty)
        #expect(try context.fetchCount(FetchDescriptor<FormatTask>()) == 6)
    }

    @Test(arguments: StoreKind.all, hostile + ["title\" OR 1=1 --", "Z_PK", "nope", "title;"])
    func keyArgumentsMustNameProperties(_ kind: StoreKind, _ key: String) throws {
        let context = try TranslationFixture.seededContext(kind)
        #expect(throws: SwiftDataError.self) {
            _ = try context.fetch(FetchDescriptor<FormatTask>(predicate: FormatPredicate(format: "%K == 'x'", key)))
        }
        #expect(throws: SwiftDataError.self) {
            try context.delete(model: FormatTask.self, where: FormatPredicate(format: "%K == 'x'", key))
        }
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<FormatTask>()) == 6)
    }

    @Test(arguments: StoreKind.all)
    func keyArgumentNamingAPropertyWorks(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        try TranslationFixture.expectTitles("%K == %@", "title", "file2", in: context, ["file2"])
    }

    @Test(arguments: StoreKind.all)
    func sortKeysAreChecked(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        for key in ["title DESC; DROP TABLE FormatTask", "nope", "project", "tags"] {
            #expect(throws: SwiftDataError.self) {
                _ = try context.fetch(
                    FetchDescriptor<FormatTask>(predicate: nil, sortDescriptors: [FormatSortDescriptor(key: key)]))
            }
        }
        #expect(try context.fetchCount(FetchDescriptor<FormatTask>()) == 6)
    }

    @Test(arguments: StoreKind.all)
    func errorsDoNotShowBoundValues(_ kind: StoreKind) throws {
        let context = try TranslationFixture.seededContext(kind)
        let predicate = FormatPredicate(format: "priority == %@ AND title == 'also private'", "hunter2")
        do {
            _ = try context.fetch(FetchDescriptor<FormatTask>(predicate: predicate))
            Issue.record("a string compared with an Int property fetched")
        } catch {
            let text = "\(error)"
            #expect(text.contains("FormatTask: priority == %@:"))
            #expect(!text.contains("hunter2") && !text.contains("also private"))
        }
    }
}
