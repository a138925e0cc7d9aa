import Foundation
import SwiftData
import Testing

@Model final class UndoAuthor {
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \UndoBook.author) var books: [UndoBook] = []
    init(name: String) { self.name = name }
}

@Model final class UndoBook {
    var title: String
    var pages: Int
    var author: UndoAuthor?
    var tags: [UndoTag] = []
    init(title: String, pages: Int = 100) {
        self.title = title
        self.pages = pages
    }
}

@Model final class UndoTag {
    var name: String
    @Relationship(inverse: \UndoBook.tags) var books: [UndoBook] = []
    init(name: String) { self.name = name }
}

/// `modelContext.undoManager`, written the way SwiftData and Core Data apps use it: inserts, property and
/// relationship changes and deletes undo and redo, across saves, in groups.
@MainActor
@Suite("ModelContext.undoManager")
struct UndoManagerCompatibilityTests {
    private func container(_ kind: StoreKind) throws -> ModelContainer {
        try freshContainer(kind, UndoAuthor.self, UndoBook.self, UndoTag.self)
    }

    /// A context with an undo manager that groups explicitly, as editors that mark their own steps do.
    private func editingContext(_ container: ModelContainer) -> ModelContext {
        let context = ModelContext(container)
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        context.undoManager = undoManager
        return context
    }

    private func step(_ context: ModelContext, _ change: () -> Void) {
        context.undoManager?.beginUndoGrouping()
        change()
        context.undoManager?.endUndoGrouping()
    }

    private func storedTitles(_ container: ModelContainer) throws -> [String] {
        try ModelContext(container).fetch(FetchDescriptor<UndoBook>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test(arguments: StoreKind.all) func propertyChangesUndoAndRedo(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let book = UndoBook(title: "Dune")
        context.insert(book)
        try context.save()
        step(context) { book.title = "Dune Messiah" }
        step(context) { book.pages = 300 }
        #expect(context.hasChanges)
        context.undoManager?.undo()
        #expect(book.pages == 100 && book.title == "Dune Messiah")
        context.undoManager?.undo()
        #expect(book.title == "Dune")
        #expect(!context.hasChanges, "back at the saved values")
        context.undoManager?.redo()
        #expect(book.title == "Dune Messiah" && context.hasChanges)
        try context.save()
        #expect(try storedTitles(container) == ["Dune Messiah"])
    }

    @Test(arguments: StoreKind.all) func undoingAfterASaveMakesTheContextDirtyAndTheNextSaveWritesIt(
        _ kind: StoreKind
    ) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let book = UndoBook(title: "Dune")
        context.insert(book)
        try context.save()
        step(context) { book.title = "Children of Dune" }
        try context.save()
        #expect(!context.hasChanges)
        context.undoManager?.undo()
        #expect(book.title == "Dune" && context.hasChanges)
        try context.save()
        #expect(try storedTitles(container) == ["Dune"])
        context.undoManager?.redo()
        try context.save()
        #expect(try storedTitles(container) == ["Children of Dune"])
    }

    @Test(arguments: StoreKind.all) func insertsUndoBeforeAndAfterTheSave(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let book = UndoBook(title: "Kindred")
        step(context) { context.insert(book) }
        context.undoManager?.undo()
        #expect(book.modelContext == nil && !context.hasChanges)
        context.undoManager?.redo()
        #expect(book.modelContext === context)
        try context.save()
        #expect(try storedTitles(container) == ["Kindred"])
        context.undoManager?.undo()
        #expect(book.isDeleted && context.hasChanges)
        try context.save()
        #expect(try storedTitles(container) == [])
        context.undoManager?.redo()
        try context.save()
        #expect(try storedTitles(container) == ["Kindred"])
        #expect(!book.isDeleted)
    }

    @Test(arguments: StoreKind.all) func aSavedDeleteUndoesWithItsCascadeAndRelationships(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let author = UndoAuthor(name: "Butler")
        let kindred = UndoBook(title: "Kindred")
        let dawn = UndoBook(title: "Dawn")
        let classic = UndoTag(name: "classic")
        author.books = [kindred, dawn]
        kindred.tags = [classic]
        context.insert(author)
        try context.save()
        step(context) { context.delete(author) }
        try context.save()
        #expect(try storedTitles(container) == [])
        #expect(try ModelContext(container).fetch(FetchDescriptor<UndoTag>()).first?.books.isEmpty == true)
        context.undoManager?.undo()
        try context.save()
        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<UndoAuthor>()).first)
        #expect(stored.name == "Butler")
        #expect(stored.books.map(\.title).sorted() == ["Dawn", "Kindred"])
        #expect(try reader.fetch(FetchDescriptor<UndoTag>()).first?.books.map(\.title) == ["Kindred"])
        #expect(kindred.author === author && author.books.count == 2)
    }

    @Test(arguments: StoreKind.all) func relationshipChangesUndoOnBothSides(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let herbert = UndoAuthor(name: "Herbert")
        let leGuin = UndoAuthor(name: "Le Guin")
        let book = UndoBook(title: "Dune")
        book.author = herbert
        context.insert(book)
        context.insert(leGuin)
        try context.save()
        step(context) { book.author = leGuin }
        #expect(herbert.books.isEmpty && leGuin.books.map(\.title) == ["Dune"])
        context.undoManager?.undo()
        #expect(book.author === herbert)
        #expect(herbert.books.map(\.title) == ["Dune"] && leGuin.books.isEmpty)
        try context.save()
        let stored = try ModelContext(container).fetch(FetchDescriptor<UndoBook>()).first
        #expect(stored?.author?.name == "Herbert")
        let tag = UndoTag(name: "sf")
        step(context) { book.tags.append(tag) }
        try context.save()
        context.undoManager?.undo()
        #expect(book.tags.isEmpty && tag.books.isEmpty)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<UndoBook>()).first?.tags.isEmpty == true)
    }

    @Test(arguments: StoreKind.all) func changesInOneMainActorTurnUndoTogether(_ kind: StoreKind) async throws {
        let container = try container(kind)
        let context = container.mainContext
        context.undoManager = UndoManager()
        let book = UndoBook(title: "Dune")
        context.insert(book)
        try context.save()
        book.title = "Dune Messiah"
        book.pages = 250
        for _ in 0..<100 where context.undoManager?.groupingLevel != 0 { await Task.yield() }
        book.title = "Children of Dune"
        context.undoManager?.undo()
        #expect(book.title == "Dune Messiah" && book.pages == 250)
        context.undoManager?.undo()
        #expect(book.title == "Dune" && book.pages == 100)
        try context.save()
    }

    @Test(arguments: StoreKind.all) func liveResultsFollowAnUndoneInsert(_ kind: StoreKind) async throws {
        let container = try container(kind)
        let context = container.mainContext
        context.undoManager = UndoManager()
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\UndoBook.title)], modelContext: context)
        context.insert(UndoBook(title: "Kindred"))
        context.insert(UndoBook(title: "Dawn"))
        try context.save()
        let deadline = ContinuousClock.now + .seconds(30)
        while observer.results.count != 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(observer.results.map(\.title) == ["Dawn", "Kindred"])
        #expect(context.undoManager?.canUndo == true)
        context.undoManager?.undo()
        #expect(context.deletedModelsArray.count == 2)
        try context.save()
        let emptyDeadline = ContinuousClock.now + .seconds(30)
        while !observer.results.isEmpty, ContinuousClock.now < emptyDeadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(observer.results.isEmpty)
        #expect(context.autosaveError == nil)
        #expect(try storedTitles(container) == [])
        #expect(context.undoManager?.canRedo == true)
        context.undoManager?.redo()
        #expect(context.insertedModelsArray.count == 2)
        try context.save()
        #expect(try storedTitles(container) == ["Dawn", "Kindred"])
        let redone = ContinuousClock.now + .seconds(30)
        while observer.results.count != 2, ContinuousClock.now < redone { try await Task.sleep(for: .milliseconds(5)) }
        #expect(observer.results.map(\.title) == ["Dawn", "Kindred"])
    }

    @Test(arguments: StoreKind.all) func aBatchDeleteUndoneBeforeTheSaveKeepsEveryRow(_ kind: StoreKind) throws {
        let container = try container(kind)
        let writer = ModelContext(container)
        writer.insert(UndoBook(title: "Dawn"))
        writer.insert(UndoBook(title: "Kindred"))
        try writer.save()
        let context = editingContext(container)
        let registered = try #require(
            try context.fetch(FetchDescriptor<UndoBook>(predicate: #Predicate { $0.title == "Dawn" })).first)
        context.undoManager?.beginUndoGrouping()
        try context.delete(model: UndoBook.self)
        context.undoManager?.endUndoGrouping()
        #expect(registered.isDeleted)
        context.undoManager?.undo()
        #expect(!registered.isDeleted)
        try context.save()
        #expect(try storedTitles(container) == ["Dawn", "Kindred"])
    }

    @Test(arguments: StoreKind.all) func undoAfterTheContextIsGoneDoesNothing(_ kind: StoreKind) throws {
        let container = try container(kind)
        let undoManager = UndoManager()
        undoManager.groupsByEvent = false
        var book: UndoBook?
        do {
            let context = ModelContext(container)
            context.undoManager = undoManager
            let inserted = UndoBook(title: "Dune")
            context.insert(inserted)
            try context.save()
            undoManager.beginUndoGrouping()
            inserted.title = "Dune Messiah"
            undoManager.endUndoGrouping()
            book = inserted
        }
        #expect(undoManager.canUndo)
        undoManager.undo()
        #expect(book?.title == "Dune Messiah")
        #expect(!undoManager.canRedo)
    }

    @Test(arguments: StoreKind.all) func rollbackForgetsTheContextsUndoOperations(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let book = UndoBook(title: "Dune")
        context.insert(book)
        try context.save()
        step(context) { book.title = "Dune Messiah" }
        context.rollback()
        #expect(book.title == "Dune" && context.undoManager?.canUndo == false)
    }

    @Test(arguments: StoreKind.all) func settingTheUndoManagerToNilStopsRecording(_ kind: StoreKind) throws {
        let container = try container(kind)
        let context = editingContext(container)
        let undoManager = try #require(context.undoManager)
        context.undoManager = nil
        context.insert(UndoBook(title: "Imported"))
        #expect(!undoManager.canUndo)
    }
}
