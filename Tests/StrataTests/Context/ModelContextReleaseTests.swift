import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Models that hold each other through their relationships (a book and its author, both sides read) are freed
/// with their context, and with them the store, unless user code keeps them — and a kept model still reads its
/// relationships, and keeps its unsaved changes, after its context is gone.
@Suite("Models outlive their context only when kept")
struct ModelContextReleaseTests {
    /// Stores two authors with two books each, from a context of their own (inserted, then saved).
    private func seed(_ container: ModelContainer) throws {
        let context = ModelContext(container)
        for name in ["Le Guin", "Herbert"] {
            let author = RelAuthor(name: name)
            context.insert(author)
            for volume in 1...2 { author.books.append(RelBook(title: "\(name) \(volume)")) }
        }
        try context.save()
    }

    /// Fetches every book and reads both sides of each book's author relationship.
    private func readBothSides(_ context: ModelContext) throws -> [RelBook] {
        let books = try context.fetch(FetchDescriptor<RelBook>(sortBy: [SortDescriptor(\.title)]))
        for book in books { _ = book.author?.books.map(\.title) }
        return books
    }

    @Test(
        "Books and authors read on both sides are freed with their context, and the store with them",
        arguments: StoreKind.all)
    func linkedModelsAreFreed(kind: StoreKind) throws {
        weak var book: RelBook?
        weak var author: RelAuthor?
        weak var container: ModelContainer?
        weak var store: (any PersistentStore)?
        try {
            let opened = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
            try seed(opened)
            let context = ModelContext(opened)
            let books = try readBothSides(context)
            #expect(books.count == 4)
            book = books.first
            author = books.first?.author
            container = opened
            store = context.store
        }()
        #expect(book == nil)
        #expect(author == nil)
        #expect(container == nil)
        #expect(store == nil)
    }

    @Test(
        "A book kept after its context is gone reads its author, and the author its books, from the store",
        arguments: StoreKind.all)
    func keptModelReadsRelationships(kind: StoreKind) throws {
        weak var author: RelAuthor?
        let kept: RelBook = try {
            let opened = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
            try seed(opened)
            let context = ModelContext(opened)
            return try withExtendedLifetime(context) {
                let books = try readBothSides(context)
                author = books[0].author
                return books[0]
            }
        }()
        // The author the context made is gone; the book reads its author anew from its store.
        #expect(author == nil)
        #expect(kept.title == "Herbert 1")
        #expect(kept.author?.name == "Herbert")
        #expect(kept.author?.books.map(\.title).sorted() == ["Herbert 1", "Herbert 2"])
    }

    @Test("Unsaved changes survive the context going away; the unchanged models are freed", arguments: StoreKind.all)
    func unsavedChangesAreKept(kind: StoreKind) throws {
        weak var unchangedBook: RelBook?
        weak var unchangedAuthor: RelAuthor?
        let kept: RelBook = try {
            let opened = try freshContainer(kind, RelAuthor.self, RelBook.self, RelChapter.self, RelTag.self)
            try seed(opened)
            let context = ModelContext(opened)
            let books = try readBothSides(context)
            // Herbert's first book is renamed and Herbert gets a new book, neither saved; Le Guin is untouched.
            books[0].title = "Dune"
            let added = RelBook(title: "Children of Dune")
            context.insert(added)
            added.author = books[0].author
            unchangedBook = books[2]
            unchangedAuthor = books[2].author
            return books[0]
        }()
        #expect(unchangedBook == nil)
        #expect(unchangedAuthor == nil)
        #expect(kept.title == "Dune")
        #expect(kept.author?.name == "Herbert")
        #expect(kept.author?.books.map(\.title).sorted() == ["Children of Dune", "Dune", "Herbert 2"])
    }
}
