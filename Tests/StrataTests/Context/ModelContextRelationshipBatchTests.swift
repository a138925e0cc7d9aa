import Foundation
import Strata
import Testing

@Model final class ShelfAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \ShelfBook.author) var books: [ShelfBook] = []
    init(name: String) { self.name = name }
}

@Model final class ShelfBook {
    var number: Int
    var author: ShelfAuthor?
    init(number: Int, author: ShelfAuthor?) {
        self.number = number
        self.author = author
    }
}

@Suite("Relationships read page after page")
struct ModelContextRelationshipBatchTests {
    /// A container with `count` books, book *i* by author *i* (each author has one book).
    private func makeShelf(_ kind: StoreKind, books count: Int) throws -> ModelContainer {
        let container = try freshContainer(kind, ShelfAuthor.self, ShelfBook.self)
        let context = ModelContext(container)
        for number in 0..<count { context.insert(ShelfBook(number: number, author: ShelfAuthor(name: "author \(number)"))) }
        try context.save()
        return container
    }

    @Test("Reading book.author page after page gives every book its own author, each page's loaded together", arguments: StoreKind.all)
    func toOneAcrossPages(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 30)
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<ShelfBook>(sortBy: [SortDescriptor(\.number)]), batchSize: 10)
        let store = container.store as? SQLiteStore
        for page in 0..<3 {
            let before = store?.executedStatementCount
            for book in books[(page * 10)..<(page * 10 + 10)] {
                #expect(book.author?.name == "author \(book.number)")
            }
            // One query for the page's books, one for all ten of its authors.
            if let store, let before { #expect(store.executedStatementCount - before == 2) }
        }
        // The authors registered on earlier pages are the ones later reads find.
        let first = try #require(books[0].author)
        #expect(books[0].author === first)
        #expect(first.books.map(\.number) == [0])
    }

    @Test("Reading author.books page after page loads each page's books in one query", arguments: StoreKind.all)
    func toManyAcrossPages(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 20)
        let context = ModelContext(container)
        let store = container.store as? SQLiteStore
        for page in 0..<2 {
            var descriptor = FetchDescriptor<ShelfAuthor>(sortBy: [SortDescriptor(\.name)])
            descriptor.fetchOffset = page * 10
            descriptor.fetchLimit = 10
            let authors = try context.fetch(descriptor)
            let before = store?.executedStatementCount
            for author in authors { #expect(author.books.map { "author \($0.number)" } == [author.name]) }
            if let store, let before { #expect(store.executedStatementCount - before == 1) }
        }
    }

    @Test("A relationship read after a save loads it for the models that save registered too", arguments: StoreKind.all)
    func savedModelsJoinTheBatch(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 5)
        let context = ModelContext(container)
        // Books made from rows, whose author relationship nothing has read yet.
        let books = try context.fetch(FetchDescriptor<ShelfBook>(sortBy: [SortDescriptor(\.number)]))
        let extra = ShelfBook(number: 5, author: nil)
        context.insert(extra)
        try context.save()
        #expect(books.map { $0.author?.name } == (0..<5).map { "author \($0)" })
        #expect(extra.author == nil)
    }

    @Test("enumerate keeps the models registered before it, the same instances, and frees the others", arguments: StoreKind.all)
    func enumerateKeepsEarlierModels(_ kind: StoreKind) throws {
        let container = try makeShelf(kind, books: 12)
        let context = ModelContext(container)
        var held = FetchDescriptor<ShelfBook>(predicate: #Predicate { $0.number < 4 })
        held.sortBy = [SortDescriptor(\.number)]
        let identifiers = try context.fetch(held).map(\.persistentModelID)
        weak var released: ShelfBook?
        var seen: [Int] = []
        try context.enumerate(FetchDescriptor<ShelfBook>(sortBy: [SortDescriptor(\.number)]), batchSize: 5) { book in
            seen.append(book.number)
            if book.number == 10 { released = book }
        }
        #expect(seen == Array(0..<12))
        #expect(released == nil)
        let kept = identifiers.compactMap { context.registeredModel(for: $0) as ShelfBook? }
        #expect(kept.map(\.number) == [0, 1, 2, 3])
    }
}
