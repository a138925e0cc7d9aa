import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `.overwrite` writes a model's values over a row changed elsewhere; values the model never read are not its to
/// write.
@Suite("Overwrite and properties a model never read")
struct OverwriteUnloadedTests {
    /// A saved book "Dune" by "First" beside an author "Second", the context that saved them, and a context under
    /// `.overwrite` holding the book fetched with its `author` alone and the author "Second".
    private struct Shelf {
        let container: ModelContainer
        let setup: ModelContext
        let book: RelBook
        let context: ModelContext
        let partialBook: RelBook
        let second: RelAuthor
        /// A third context, which reads the book only once the test has saved.
        let check: ModelContext

        init(_ kind: StoreKind) throws {
            container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
            setup = ModelContext(container)
            let first = RelAuthor(name: "First")
            setup.insert(first)
            setup.insert(RelAuthor(name: "Second"))
            book = RelBook(title: "Dune", author: first)
            setup.insert(book)
            try setup.save()

            context = ModelContext(container)
            context.mergePolicy = .overwrite
            second = try #require(
                try context.fetch(FetchDescriptor<RelAuthor>(predicate: #Predicate { $0.name == "Second" })).first)
            var partial = FetchDescriptor<RelBook>()
            partial.propertiesToFetch = [\.author]
            partialBook = try #require(try context.fetch(partial).first)
            check = ModelContext(container)
        }

        /// The book as another context reads it from the store.
        func storedBook() throws -> RelBook {
            try #require(try check.fetch(FetchDescriptor<RelBook>()).first)
        }
    }

    @Test("A model fetched with some properties keeps the others when it overwrites", arguments: StoreKind.all)
    func partialModelOverwrites(_ kind: StoreKind) throws {
        let shelf = try Shelf(kind)
        shelf.partialBook.author = shelf.second
        try shelf.context.save()

        let stored = try shelf.storedBook()
        #expect(stored.title == "Dune")
        #expect(stored.author?.name == "Second")
    }

    @Test("A fault whose row changed elsewhere keeps the other writer's values it never read", arguments: StoreKind.all)
    func faultOverwritesAfterAnotherWriter(_ kind: StoreKind) throws {
        let shelf = try Shelf(kind)
        shelf.book.title = "Dune Messiah"
        try shelf.setup.save()
        shelf.partialBook.author = shelf.second
        try shelf.context.save()

        let stored = try shelf.storedBook()
        #expect(stored.author?.name == "Second")
        #expect(stored.title == "Dune Messiah")
    }
}
