import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ChangedModels: a context's changed models, in change order and in row order")
struct ChangedModelsTests {
    /// A context holding `count` saved books, and the books in insertion (key) order.
    private func savedBooks(_ count: Int) throws -> (ModelContext, [Book]) {
        let context = ModelContext(try freshContainer(.sqlite, Book.self))
        let books = (0..<count).map { Book(title: "Book \($0)", author: "A", publisher: "P") }
        for book in books { context.insert(book) }
        try context.save()
        return (context, books)
    }

    @Test("Changed models are listed once each, in the order they were first changed")
    func changeOrder() throws {
        let (context, books) = try savedBooks(10)
        let order = [7, 2, 9, 0, 2, 7, 5]
        for position in order { books[position].summary = "Changed \(position)" }
        let listed = context.changedModelsArray.map { ObjectIdentifier($0) }
        #expect(listed == [7, 2, 9, 0, 5].map { ObjectIdentifier(books[$0]) })
        #expect(context.changedModels.count == 5)
    }

    @Test("A model changed back to its saved values leaves the list, and comes back last when changed again")
    func changedBack() throws {
        let (context, books) = try savedBooks(4)
        let saved = books[1].summary
        for book in books { book.summary = "Changed" }
        books[1].summary = saved
        #expect(context.changedModelsArray.compactMap { $0 as? Book }.map(\.title) == ["Book 0", "Book 2", "Book 3"])
        books[1].summary = "Changed again"
        #expect(
            context.changedModelsArray.compactMap { $0 as? Book }.map(\.title) == [
                "Book 0", "Book 2", "Book 3", "Book 1",
            ])
    }

    @Test("Models changed and changed back many times keep the list and the key order right")
    func manyChangesBack() throws {
        let (context, books) = try savedBooks(60)
        let saved = books.map(\.summary)
        for round in 0..<5 {
            for (position, book) in books.enumerated() where position % 3 != 0 {
                book.summary = "Round \(round)"
                book.summary = saved[position]
            }
        }
        for position in stride(from: 59, through: 0, by: -3) { books[position].summary = "Kept" }
        #expect(context.changedModels.count == 20)
        let expected = stride(from: 59, through: 0, by: -3).map { books[$0].title }
        #expect(context.changedModelsArray.compactMap { $0 as? Book }.map(\.title) == expected)
        #expect(context.changedModels.inRowOrder().compactMap { $0 as? Book }.map(\.title) == expected.reversed())
    }

    @Test("Row order lists models by entity name, then key, whatever order they changed in")
    func equalKeysAcrossEntities() throws {
        let context = ModelContext(try freshContainer(.sqlite, Book.self, ShelvedBook.self))
        let book = Book(title: "Dune", author: "A", publisher: "P")
        let note = ShelvedBook(title: "n")
        context.insert(book)
        context.insert(note)
        try context.save()
        try #require(book.persistentModelID.primaryKey == note.persistentModelID.primaryKey)
        note.title = "changed"
        book.summary = "changed"
        let ordered = context.changedModels.inRowOrder().map { ObjectIdentifier($0) }
        #expect(ordered == [ObjectIdentifier(book), ObjectIdentifier(note)])
        try context.save()
        #expect(context.changedModels.isEmpty)
        #expect(context.changedModels.inRowOrder().isEmpty)
    }
}
