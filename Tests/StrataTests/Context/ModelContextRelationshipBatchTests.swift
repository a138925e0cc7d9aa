import Foundation
import Strata
import Testing

@testable import StrataTestFixtures

@Suite("Relationships read page after page")
struct ModelContextRelationshipBatchTests {
    /// A container with `count` books, "book NN" by "author NN" (each author has one book).
    private func makeShelf(_ kind: StoreKind, books count: Int) throws -> ModelContainer {
        let container = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
        let context = ModelContext(container)
        for number in 0..<count {
            context.insert(RelBook(title: label("book", number), author: RelAuthor(name: label("author", number))))
        }
        try context.save()
        return container
    }

    /// "book 07": numbers padded so that names sort as the numbers do.
    private func label(_ prefix: String, _ number: Int) -> String {
        prefix + (number < 10 ? " 0" : " ") + String(number)
    }

    @Test(
        "Reading book.author page after page gives every book its own author, each page's loaded together",
        arguments: StoreKind.all)
    func toOneAcrossPages(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 30)
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]), batchSize: 10)
        let store = container.store as? SQLiteStore
        for page in 0..<3 {
            let before = store?.executedStatementCount
            for (offset, book) in books[(page * 10)..<(page * 10 + 10)].enumerated() {
                #expect(book.author?.name == label("author", page * 10 + offset))
            }
            // One query for the page's books, one for all ten of its authors.
            if let store, let before { #expect(store.executedStatementCount - before == 2) }
        }
        // The authors registered on earlier pages are the ones later reads find.
        let first = try #require(books[0].author)
        #expect(books[0].author === first)
        #expect(first.books.map(\.title) == ["book 00"])
    }

    @Test(
        "Reading book.author across a batched fetch in order loads the books and their authors a growing run at a time",
        arguments: StoreKind.all)
    func toOneAcrossABatchedFetchReadInOrder(_ kind: StoreKind) throws {
        let context = ModelContext(try makeShelf(kind, books: 1_000))
        let store = context.container.store as? SQLiteStore
        let books = try context.fetch(FetchDescriptor<RelBook>(), batchSize: 10)
        let before = store?.executedStatementCount
        #expect(books.count == 1_000)
        #expect(books.allSatisfy { $0.author?.name == $0.title.replacingOccurrences(of: "book", with: "author") })
        // The books in 8 runs (batches 0, 1, 2–3, 4–7, …, 64–99), each run's authors in one more query: 16 rather
        // than 200, one query per batch for the books and one for its authors.
        if let store, let before { #expect(store.executedStatementCount - before == 16) }
    }

    @Test("Reading author.books page after page loads each page's books in one query", arguments: StoreKind.all)
    func toManyAcrossPages(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 20)
        let context = ModelContext(container)
        let store = container.store as? SQLiteStore
        for page in 0..<2 {
            var descriptor = FetchDescriptor<RelAuthor>(sortBy: [SortDescriptor(\.name)])
            descriptor.fetchOffset = page * 10
            descriptor.fetchLimit = 10
            let authors = try context.fetch(descriptor)
            let before = store?.executedStatementCount
            for author in authors {
                #expect(author.books.map { $0.title.replacingOccurrences(of: "book", with: "author") } == [author.name])
            }
            if let store, let before { #expect(store.executedStatementCount - before == 1) }
        }
    }

    @Test("A relationship read after a save loads it for the models that save registered too", arguments: StoreKind.all)
    func savedModelsJoinTheBatch(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 5)
        let context = ModelContext(container)
        // Books made from rows, whose author relationship nothing has read yet.
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
        let extra = RelBook(title: "book 05")
        context.insert(extra)
        try context.save()
        #expect(books.map { $0.author?.name } == (0..<5).map { label("author", $0) })
        #expect(extra.author == nil)
    }

    @Test(
        "book.author read across a fetched list after a save gives each book its author now, the others in at most one query",
        arguments: StoreKind.all)
    func toOneAfterSave(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 6)
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
        // The author a fetched row named is no longer right for one book once the save is made.
        let newcomer = RelAuthor(name: "newcomer")
        context.insert(newcomer)
        books[1].author = newcomer
        try context.save()
        let store = container.store as? SQLiteStore
        let before = store?.executedStatementCount
        #expect(books.map { $0.author?.name } == ["author 00", "newcomer"] + (2..<6).map { label("author", $0) })
        // Assigning the book's author loaded the others' too; at most one query fills them.
        if let store, let before { #expect(store.executedStatementCount - before <= 1) }
        #expect(newcomer.books.map(\.title) == ["book 01"])
    }

    @Test(
        "Relationships read across a list in any order, starting anywhere, load in one query each",
        arguments: StoreKind.all)
    func relationshipsReadInAnyOrder(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 30)
        let store = container.store as? SQLiteStore
        // The books in reverse key order: their authors' faults are made in reverse too, read together in key order.
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title, order: .reverse)]))
        var before = store?.executedStatementCount
        #expect(books.map { $0.author?.name } == (0..<30).reversed().map { label("author", $0) })
        if let store, let before { #expect(store.executedStatementCount - before == 1) }
        // The authors' books, first read in the middle of the list.
        let other = ModelContext(container)
        let authors = try other.fetch(FetchDescriptor<RelAuthor>(sortBy: [SortDescriptor(\.name)]))
        before = store?.executedStatementCount
        #expect(authors[17].books.map(\.title) == ["book 17"])
        if let store, let before { #expect(store.executedStatementCount - before == 1) }
        #expect(authors.map { $0.books.map(\.title) } == (0..<30).map { [label("book", $0)] })
        if let store, let before { #expect(store.executedStatementCount - before == 1) }
    }

    @Test(
        "enumerate keeps the models registered before it, the same instances, and frees the others",
        arguments: StoreKind.all)
    func enumerateKeepsEarlierModels(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 12)
        let context = ModelContext(container)
        var held = FetchDescriptor<RelBook>(predicate: #Predicate { $0.title < "book 04" })
        held.sortBy = [SortDescriptor(\.title)]
        let identifiers = try context.fetch(held).map(\.persistentModelID)
        weak var released: RelBook?
        var seen: [String] = []
        try context.enumerate(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]), batchSize: 5) { book in
            seen.append(book.title)
            if book.title == "book 10" { released = book }
        }
        #expect(seen == (0..<12).map { label("book", $0) })
        #expect(released == nil)
        let kept = identifiers.compactMap { context.registeredModel(for: $0) as RelBook? }
        #expect(kept.map(\.title) == ["book 00", "book 01", "book 02", "book 03"])
    }
}
