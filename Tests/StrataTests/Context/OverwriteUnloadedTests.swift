import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `.overwrite` writes a model's values over a row changed elsewhere; values the model never read are not its to
/// write.
@Suite("Overwrite and properties a model never read")
struct OverwriteUnloadedTests {
    @Test("A model fetched with some properties keeps the others when it overwrites", arguments: StoreKind.all)
    func partialModelOverwrites(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let setup = ModelContext(container)
        let first = RelAuthor(name: "First")
        let second = RelAuthor(name: "Second")
        setup.insert(first)
        setup.insert(second)
        setup.insert(RelBook(title: "Dune", author: first))
        try setup.save()

        let context = ModelContext(container)
        context.mergePolicy = .overwrite
        let target = try #require(
            try context.fetch(FetchDescriptor<RelAuthor>(predicate: #Predicate { $0.name == "Second" })).first)
        var partial = FetchDescriptor<RelBook>()
        partial.propertiesToFetch = [\.author]
        let book = try #require(try context.fetch(partial).first)
        book.author = target
        try context.save()

        let check = ModelContext(container)
        let stored = try #require(try check.fetch(FetchDescriptor<RelBook>()).first)
        #expect(stored.title == "Dune")
        #expect(stored.author?.name == "Second")
    }

    @Test("A fault whose row changed elsewhere keeps the other writer's values it never read", arguments: StoreKind.all)
    func faultOverwritesAfterAnotherWriter(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let setup = ModelContext(container)
        let first = RelAuthor(name: "First")
        let second = RelAuthor(name: "Second")
        setup.insert(first)
        setup.insert(second)
        let book = RelBook(title: "Dune", author: first)
        setup.insert(book)
        try setup.save()

        let context = ModelContext(container)
        context.mergePolicy = .overwrite
        let target = try #require(
            try context.fetch(FetchDescriptor<RelAuthor>(predicate: #Predicate { $0.name == "Second" })).first)
        var partial = FetchDescriptor<RelBook>()
        partial.propertiesToFetch = [\.author]
        let mine = try #require(try context.fetch(partial).first)
        book.title = "Dune Messiah"
        try setup.save()
        mine.author = target
        try context.save()

        let check = ModelContext(container)
        let stored = try #require(try check.fetch(FetchDescriptor<RelBook>()).first)
        #expect(stored.author?.name == "Second")
        #expect(stored.title == "Dune Messiah")
    }
}
