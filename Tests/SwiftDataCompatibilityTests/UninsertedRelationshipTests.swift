import Foundation
import SwiftData
import Testing

@Model final class DraftAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \DraftBook.author) var books: [DraftBook] = []
    init(name: String) { self.name = name }
}

@Model final class DraftBook {
    var title: String
    var author: DraftAuthor?
    init(title: String) { self.title = title }
}

/// Sample-data builders link models before inserting anything; the inverse is set at once, as in SwiftData.
@Suite struct UninsertedRelationshipTests {
    private func makeContext(_ kind: StoreKind) throws -> ModelContext {
        ModelContext(try freshContainer(kind, DraftAuthor.self, DraftBook.self))
    }

    @Test func appendingToAToManySetsTheInverseBeforeAnyInsert() {
        let author = DraftAuthor(name: "Le Guin")
        let book = DraftBook(title: "Earthsea")
        author.books.append(book)
        #expect(book.author === author)
        author.books.removeAll()
        #expect(book.author == nil)
        book.author = author
        #expect(author.books.map(\.title) == ["Earthsea"])
        let other = DraftAuthor(name: "Butler")
        other.books.append(book)
        #expect(book.author === other)
        #expect(author.books.isEmpty)
    }

    @Test(arguments: StoreKind.all, [true, false])
    func insertingEitherModelInsertsBothWithTheRelationshipSaved(_ kind: StoreKind, insertAuthor: Bool) throws {
        let context = try makeContext(kind)
        let author = DraftAuthor(name: "Herbert")
        let book = DraftBook(title: "Dune")
        author.books.append(book)
        if insertAuthor { context.insert(author) } else { context.insert(book) }
        try context.save()

        let fresh = ModelContext(context.container)
        let books = try fresh.fetch(FetchDescriptor<DraftBook>())
        #expect(books.map(\.title) == ["Dune"])
        #expect(books.first?.author?.name == "Herbert")
        #expect(try fresh.fetch(FetchDescriptor<DraftAuthor>()).first?.books.map(\.title) == ["Dune"])
    }
}
