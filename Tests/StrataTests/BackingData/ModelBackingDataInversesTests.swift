import Foundation
import Strata
import Testing

@testable import StrataTestFixtures

@Suite("Inverse relationships kept in step")
struct ModelBackingDataInversesTests {
    /// A container with two authors, "a" with books "a0"…"a2" and "b" with "b0"…"b2".
    private func makeShelf(_ kind: StoreKind) throws -> ModelContainer {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        for name in ["a", "b"] {
            let author = RelAuthor(name: name)
            context.insert(author)
            for number in 0..<3 { context.insert(RelBook(title: "\(name)\(number)", author: author)) }
        }
        try context.save()
        return container
    }

    /// The context's authors by name and books by title, every book's author read.
    private func fetchShelf(
        _ context: ModelContext
    ) throws -> (authors: [String: RelAuthor], books: [String: RelBook]) {
        let authors = try context.fetch(FetchDescriptor<RelAuthor>())
        let books = try context.fetch(FetchDescriptor<RelBook>())
        for book in books { _ = book.author }
        return (
            Dictionary(uniqueKeysWithValues: authors.map { ($0.name, $0) }),
            Dictionary(uniqueKeysWithValues: books.map { ($0.title, $0) })
        )
    }

    /// The shelf of `makeShelf` and a new context over it, with its authors and books.
    private func openShelf(
        _ kind: StoreKind
    ) throws -> (ModelContainer, ModelContext, authors: [String: RelAuthor], books: [String: RelBook]) {
        let container = try makeShelf(kind)
        let context = ModelContext(container)
        let (authors, books) = try fetchShelf(context)
        return (container, context, authors, books)
    }

    private func titles(_ author: RelAuthor?) -> [String] { (author?.books.map(\.title) ?? []).sorted() }

    /// Each author's name with its books' titles, sorted.
    private func shelf(_ authors: [String: RelAuthor]) -> [String: [String]] { authors.mapValues(titles) }

    @Test(
        "Moving books between authors whose books were never read loads no author's books",
        arguments: StoreKind.all)
    func moveLoadsNoInverse(_ kind: StoreKind) throws {
        let (container, context, authors, books) = try openShelf(kind)
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount
        books["a0"]?.author = authors["b"]
        books["b1"]?.author = authors["a"]
        if let store, let before { #expect(store.executedStatementCount == before) }
        // Read later, each author's books include the unsaved moves.
        let moved = ["a": ["a1", "a2", "b1"], "b": ["a0", "b0", "b2"]]
        #expect(shelf(authors) == moved)
        try context.save()
        #expect(shelf(try fetchShelf(ModelContext(container)).authors) == moved)
    }

    @Test(
        "A book moved away and back, or on to a third author, is in its last author's books only",
        arguments: StoreKind.all)
    func movedTwice(_ kind: StoreKind) throws {
        let (container, context, authors, books) = try openShelf(kind)
        let third = RelAuthor(name: "c")
        context.insert(third)
        books["a0"]?.author = authors["b"]
        books["a0"]?.author = authors["a"]
        books["a1"]?.author = authors["b"]
        books["a1"]?.author = third
        books["b0"]?.author = nil
        var all = authors
        all["c"] = third
        let moved = ["a": ["a0", "a2"], "b": ["b1", "b2"], "c": ["a1"]]
        #expect(shelf(all) == moved)
        try context.save()
        let saved = try fetchShelf(ModelContext(container))
        #expect(shelf(saved.authors) == moved)
        #expect(saved.books["b0"]?.author == nil)
    }

    @Test("An author's books read before a move change with it, with no query", arguments: StoreKind.all)
    func loadedInverseChanges(_ kind: StoreKind) throws {
        let (container, context, authors, books) = try openShelf(kind)
        #expect(titles(authors["a"]) == ["a0", "a1", "a2"])
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount
        books["a0"]?.author = authors["b"]
        #expect(shelf(authors) == ["a": ["a1", "a2"], "b": ["a0", "b0", "b1", "b2"]])
        if let store, let before { #expect(store.executedStatementCount == before) }
        #expect(context.hasChanges)
    }

    @Test("Rolling back a move leaves both authors' books as stored", arguments: StoreKind.all)
    func rollbackForgetsMove(_ kind: StoreKind) throws {
        let (_, context, authors, books) = try openShelf(kind)
        books["a0"]?.author = authors["b"]
        context.rollback()
        #expect(books["a0"]?.author === authors["a"])
        #expect(shelf(authors) == ["a": ["a0", "a1", "a2"], "b": ["b0", "b1", "b2"]])
    }

    @Test(
        "A move after a save is read correctly when the authors' books are first read later",
        arguments: StoreKind.all)
    func moveAfterSave(_ kind: StoreKind) throws {
        let (_, context, authors, books) = try openShelf(kind)
        books["a0"]?.author = authors["b"]
        try context.save()
        books["a0"]?.author = authors["a"]
        books["b2"]?.author = authors["a"]
        #expect(shelf(authors) == ["a": ["a0", "a1", "a2", "b2"], "b": ["b0", "b1"]])
    }
}
