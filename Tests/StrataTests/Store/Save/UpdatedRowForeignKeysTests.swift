import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A moved foreign key of a row the save updates anyway is written by that row's `UPDATE`, not by one of its own.
@Suite("Foreign keys written with their row's update")
struct UpdatedRowForeignKeysTests {
    /// A container with authors "a" and "b", and books "a0"…"a4" by "a".
    private func makeShelf(_ kind: StoreKind) throws -> ModelContainer {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        let author = RelAuthor(name: "a")
        context.insert(author)
        context.insert(RelAuthor(name: "b"))
        for number in 0..<5 { context.insert(RelBook(title: "a\(number)", author: author)) }
        try context.save()
        return container
    }

    private func fetch(_ context: ModelContext) throws -> (authors: [String: RelAuthor], books: [RelBook]) {
        let authors = try context.fetch(FetchDescriptor<RelAuthor>())
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
        return (Dictionary(uniqueKeysWithValues: authors.map { ($0.name, $0) }), books)
    }

    /// The shelf of `makeShelf` and a new context over it, with its authors and books.
    private func openShelf(
        _ kind: StoreKind
    ) throws -> (ModelContainer, ModelContext, authors: [String: RelAuthor], books: [RelBook]) {
        let container = try makeShelf(kind)
        let context = ModelContext(container)
        let (authors, books) = try fetch(context)
        return (container, context, authors, books)
    }

    /// Each book's title and its author's name, as a fresh context reads them.
    private func saved(_ container: ModelContainer) throws -> [String] {
        try fetch(ModelContext(container)).books.map { "\($0.title):\($0.author?.name ?? "-")" }
    }

    @Test("Moving books whose titles change too runs no statement more than changing the titles alone")
    func movedKeysCostNoStatement() throws {
        let container = try makeShelf(.sqlite)
        let sqlite = try #require(container.store as? SQLiteStore)
        sqlite.suspendHistoryRecording(true)
        let context = ModelContext(container)
        let (authors, books) = try fetch(context)
        for book in books { book.title += "!" }
        var before = sqlite.executedStatementCount
        try context.save()
        let titlesOnly = sqlite.executedStatementCount - before
        for book in books { book.title += "?" }
        books[1].author = authors["b"]
        books[3].author = nil
        before = sqlite.executedStatementCount
        try context.save()
        #expect(sqlite.executedStatementCount - before == titlesOnly)
        #expect(try saved(container) == ["a0!?:a", "a1!?:b", "a2!?:a", "a3!?:-", "a4!?:a"])
    }

    @Test(
        "Moved keys are saved with or without other changes of their rows, to stored and inserted authors",
        arguments: StoreKind.all)
    func movedKeysAreSaved(_ kind: StoreKind) throws {
        let (container, context, authors, books) = try openShelf(kind)
        let fresh = RelAuthor(name: "c")
        books[0].title = "a0 new"
        books[0].author = authors["b"]
        books[1].author = authors["b"]
        books[2].title = "a2 new"
        books[2].author = fresh
        books[3].author = nil
        try context.save()
        #expect(try saved(container) == ["a0 new:b", "a1:b", "a2 new:c", "a3:-", "a4:a"])
        #expect(authors["b"]?.books.map(\.title).sorted() == ["a0 new", "a1"])
        #expect(books.map { $0.persistentBackingData.rowVersion } == [1, 1, 1, 1, 0])
    }

    @Test(
        "A moved key of a row changed elsewhere is written after the merge policy kept the row",
        arguments: StoreKind.all)
    func movedKeyOfConflictingRow(_ kind: StoreKind) throws {
        let (container, context, authors, books) = try openShelf(kind)
        let other = ModelContext(container)
        let (_, otherBooks) = try fetch(other)
        otherBooks[0].title = "a0 elsewhere"
        try other.save()
        books[0].author = authors["b"]
        books[1].title = "a1 new"
        books[1].author = authors["b"]
        try context.save()
        #expect(try saved(container) == ["a0 elsewhere:b", "a1 new:b", "a2:a", "a3:a", "a4:a"])
    }
}
