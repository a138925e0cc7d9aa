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

    @Test("The one model left changed after others changed back is the row order's only model")
    func oneModelLeftChanged() throws {
        let (context, books) = try savedBooks(3)
        for book in books { book.summary = "changed" }
        books[0].summary = ""
        books[2].summary = ""
        #expect(context.changedModels.inRowOrder().map { ObjectIdentifier($0) } == [ObjectIdentifier(books[1])])
    }

    /// Every changed model is saved once, with its last values, however it came to be changed: changed in reverse
    /// key order, changed back (enough of them that the list compacts) and changed again, deleted and inserted
    /// again, changed and undone, changed, undone and redone; models of two entities whose rows have equal keys.
    @MainActor @Test(arguments: StoreKind.all)
    func everyChangedModelIsSavedOnceWithItsLastValues(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Book.self, ShelvedBook.self)
        let context = ModelContext(container)
        let undoManager = Strata.UndoManager()
        undoManager.groupsByEvent = false
        context.undoManager = undoManager
        let books = (0..<40).map { Book(title: "Book \($0)", author: "A", publisher: "P") }
        let notes = (0..<40).map { ShelvedBook(title: "Note \($0)") }
        for (book, note) in zip(books, notes) {
            context.insert(book)
            context.insert(note)
        }
        try context.save()
        try #require(books.map(\.persistentModelID.primaryKey) == notes.map(\.persistentModelID.primaryKey))

        var summaries = books.map(\.summary)
        var titles = notes.map(\.title)
        for position in books.indices.reversed() {
            books[position].summary = "Changed \(position)"
            notes[position].title = "Changed note \(position)"
        }
        // Changed back: 60 of the 80 entries leave the list, which compacts it.
        for position in books.indices where !position.isMultiple(of: 4) {
            books[position].summary = summaries[position]
            notes[position].title = titles[position]
        }
        #expect(context.changedModels.count == 20)
        for position in books.indices where position.isMultiple(of: 4) {
            summaries[position] = "Changed \(position)"
            titles[position] = "Changed note \(position)"
        }
        // Changed again after being changed back.
        books[5].summary = "Again 5"
        summaries[5] = "Again 5"
        // Deleted, then inserted again, still changed.
        context.delete(books[8])
        context.insert(books[8])
        // Changed, then undone: not saved.
        undoManager.beginUndoGrouping()
        books[9].summary = "Undone 9"
        notes[9].title = "Undone note 9"
        undoManager.endUndoGrouping()
        undoManager.undo()
        // Changed, undone and redone: saved.
        undoManager.beginUndoGrouping()
        books[10].summary = "Redone 10"
        undoManager.endUndoGrouping()
        undoManager.undo()
        undoManager.redo()
        summaries[10] = "Redone 10"

        let changed = Set(context.changedModelsArray.map { ObjectIdentifier($0) })
        #expect(context.changedModelsArray.count == changed.count, "each model listed once")
        #expect(context.changedModels.inRowOrder().count == changed.count)
        try context.save()
        #expect(!context.hasChanges)

        let reread = ModelContext(container)
        let storedBooks = try reread.fetch(FetchDescriptor<Book>()).sorted {
            ($0.persistentModelID.primaryKey ?? 0) < ($1.persistentModelID.primaryKey ?? 0)
        }
        let storedNotes = try reread.fetch(FetchDescriptor<ShelvedBook>()).sorted {
            ($0.persistentModelID.primaryKey ?? 0) < ($1.persistentModelID.primaryKey ?? 0)
        }
        #expect(storedBooks.map(\.summary) == summaries)
        #expect(storedNotes.map(\.title) == titles)
    }
}
