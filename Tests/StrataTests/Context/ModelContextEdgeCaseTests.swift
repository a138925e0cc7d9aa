import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelContext: edge cases of insert, delete, upsert and failed saves")
struct ModelContextEdgeCaseTests {
    @Test(
        "Two inserts with the same unique value in one save leave one row with the later values",
        arguments: StoreKind.all)
    func duplicateUniqueInOneSave(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, CatalogBook.self))
        let first = CatalogBook(isbn: "1", title: "First")
        let second = CatalogBook(isbn: "1", title: "Second")
        context.insert(first)
        context.insert(second)
        try context.save()
        let rows = try ModelContext(context.container).fetch(FetchDescriptor<CatalogBook>())
        #expect(rows.map(\.title) == ["Second"])
        #expect(first.persistentModelID == second.persistentModelID)
        #expect(try context.fetch(FetchDescriptor<CatalogBook>()).map(\.title) == ["Second"])
    }

    @Test(
        "A failed save keeps the pending changes, and a later save with another policy writes them",
        arguments: StoreKind.all)
    func failedSaveKeepsChanges(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, CatalogBook.self))
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        try context.save()
        context.mergePolicy = .error
        let duplicate = CatalogBook(isbn: "1", title: "Dune, revised")
        context.insert(duplicate)
        #expect(throws: SwiftDataError.self) { try context.save() }
        #expect(duplicate.persistentModelID.isTemporary)
        #expect(context.insertedModelsArray.count == 1)
        context.mergePolicy = .mergeByPropertyObjectTrump
        try context.save()
        #expect(!context.hasChanges)
        #expect(
            try ModelContext(context.container).fetch(FetchDescriptor<CatalogBook>()).map(\.title) == ["Dune, revised"])
    }

    @Test(
        "Deleting an unsaved insert forgets it; deleting then re-inserting a saved model keeps it",
        arguments: StoreKind.all)
    func deleteAndReinsert(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let draft = Book(title: "Draft", author: "Me", publisher: "None")
        context.insert(draft)
        context.delete(draft)
        #expect(!context.hasChanges)
        #expect(context.insertedModelsArray.isEmpty)

        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        try context.save()
        context.delete(dune)
        #expect(dune.isDeleted)
        context.insert(dune)
        #expect(!dune.isDeleted)
        #expect(!context.hasChanges)
        try context.save()
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 1)
    }

    @Test(
        "Unsaved inserts keep their insertion order through a delete and a re-insert, each saved once",
        arguments: StoreKind.all)
    func insertionOrderAfterDeleteAndReinsert(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let first = Book(title: "First", author: "A", publisher: "P")
        let second = Book(title: "Second", author: "B", publisher: "P")
        let third = Book(title: "Third", author: "C", publisher: "P")
        for book in [first, second, third] { context.insert(book) }
        context.insert(second)
        context.delete(first)
        context.insert(first)
        #expect(context.insertedModelsArray.map { ($0 as? Book)?.title } == ["Second", "Third", "First"])
        try context.save()
        let titles = try ModelContext(context.container).fetch(FetchDescriptor<Book>()).map(\.title)
        #expect(titles.sorted() == ["First", "Second", "Third"])
        #expect(context.insertedModelsArray.isEmpty)
    }

    @Test("A deleted model's pending change is not written, and the row is gone after save", arguments: StoreKind.all)
    func deleteDropsPendingChange(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        try context.save()
        dune.title = "Changed"
        context.delete(dune)
        #expect(context.changedModelsArray.isEmpty)
        try context.save()
        #expect(try ModelContext(try store.container(Book.self)).fetchCount(FetchDescriptor<Book>()) == 0)
    }

    @Test(
        "model(for:) of a row that doesn't exist is a deleted model; existingModel(for:) throws",
        arguments: StoreKind.all)
    func missingIdentifier(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        try context.save()
        let identifier = dune.persistentModelID
        context.delete(dune)
        try context.save()

        let other = ModelContext(context.container)
        #expect(other.model(for: identifier).isDeleted)
        #expect(throws: StrataError.modelNotInContext(identifier)) {
            let _: Book = try other.existingModel(for: identifier)
        }
    }

    @Test(
        "delete(model:where:) hides matching rows this context never loaded until the save (regression), and drops matching inserts",
        arguments: StoreKind.all)
    func batchDeleteWithPendingInserts(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, Book.self)
        let setup = ModelContext(container)
        setup.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Ace"))
        setup.insert(Book(title: "Emma", author: "Jane Austen", publisher: "Murray"))
        try setup.save()

        let context = ModelContext(container)
        let draft = Book(title: "Draft", author: "Me", publisher: "Ace")
        context.insert(draft)
        try context.delete(model: Book.self, where: #Predicate { $0.publisher == "Ace" })
        #expect(context.insertedModelsArray.isEmpty)
        #expect(try context.fetch(FetchDescriptor<Book>()).map(\.title) == ["Emma"])
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == 1)
        var saved = FetchDescriptor<Book>()
        saved.includePendingChanges = false
        #expect(try context.fetchCount(saved) == 2)
        try context.save()
        #expect(try ModelContext(container).fetch(FetchDescriptor<Book>()).map(\.title) == ["Emma"])
    }

    @Test("Saving a context without changes does nothing and posts no didSave", arguments: StoreKind.all)
    func emptySave(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let recorder = SaveRecorder(context)
        try context.save()
        #expect(recorder.recorded.isEmpty)
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try context.save()
        #expect(recorder.recorded.count == 1)
    }

    @Test(
        "A read-only container over a missing file (on PostgreSQL: schema) throws instead of creating it",
        arguments: StoreKind.all)
    func readOnlyMissingFile(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        #expect(throws: SwiftDataError.self) { try store.container(Book.self, allowsSave: false) }
        #expect(!FileManager.default.fileExists(atPath: store.fileURL.path))
        #expect(try store.postgresRows("SELECT nspname FROM pg_namespace WHERE nspname = $1").isEmpty)
    }
}

@Suite("ModelContext: in-place mutation of collection and struct properties")
struct ModelContextMutationTests {
    @Test(
        "Appending to an array, editing a dictionary and a struct field are tracked and saved", arguments: StoreKind.all
    )
    func inPlaceMutationIsSaved(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(Everything.self))
        let model = Everything()
        model.tags = ["sf"]
        model.counts = ["read": 1]
        context.insert(model)
        try context.save()

        model.tags.append("classic")
        model.counts["read", default: 0] += 1
        model.dimensions.width = 12
        model.optionalDimensions = Dimensions(width: 1, height: 1, label: "a")
        model.optionalDimensions?.label = "b"
        #expect(model.hasChanges)
        try context.save()

        let reread = try #require(
            try ModelContext(try store.container(Everything.self)).fetch(FetchDescriptor<Everything>()).first)
        #expect(reread.tags == ["sf", "classic"])
        #expect(reread.counts == ["read": 2])
        #expect(reread.dimensions.width == 12)
        #expect(reread.optionalDimensions?.label == "b")
    }

    @Test("An inserted model is found by its temporary identifier before the save", arguments: StoreKind.all)
    func temporaryIdentifierLookup(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        context.insert(dune)
        let identifier = dune.persistentModelID
        let found: Book = try context.existingModel(for: identifier)
        #expect(found === dune)
        let registered: Book? = context.registeredModel(for: identifier)
        #expect(registered === dune)
    }

    @Test(
        "An upsert onto a row whose registered model has unsaved changes leaves one consistent model",
        arguments: StoreKind.all)
    func upsertOverChangedModel(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, CatalogBook.self))
        let original = CatalogBook(isbn: "1", title: "Dune")
        context.insert(original)
        try context.save()
        original.title = "Dune (edited)"
        let replacement = CatalogBook(isbn: "1", title: "Dune (replacement)")
        context.insert(replacement)
        try context.save()
        #expect(!context.hasChanges)
        let stored = try ModelContext(context.container).fetch(FetchDescriptor<CatalogBook>())
        #expect(stored.map(\.title) == ["Dune (replacement)"])
        let fetched = try context.fetch(FetchDescriptor<CatalogBook>())
        #expect(fetched.count == 1)
        #expect(fetched.first?.title == "Dune (replacement)")
    }
}

extension ModelContextEdgeCaseTests {
    @Test(
        "A save of many upserts, written in batches, ends as one upsert after another: rows replaced, a repeat kept once",
        arguments: StoreKind.all)
    func manyUpsertsInOneSave(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, CatalogBook.self))
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        context.insert(CatalogBook(isbn: "2", title: "Emma"))
        try context.save()
        for (isbn, title) in [("1", "Dune 2"), ("3", "Ulysses"), ("2", "Emma 2"), ("3", "Ulysses 2"), ("4", "Kim")] {
            context.insert(CatalogBook(isbn: isbn, title: title))
        }
        try context.save()
        let stored = try ModelContext(context.container).fetch(
            FetchDescriptor<CatalogBook>(sortBy: [SortDescriptor(\.isbn)]))
        #expect(stored.map { "\($0.isbn) \($0.title)" } == ["1 Dune 2", "2 Emma 2", "3 Ulysses 2", "4 Kim"])
        #expect(try context.fetchCount(FetchDescriptor<CatalogBook>()) == 4)
    }
}

/// A model whose transient property's default makes another model, so a model's initializer runs while a fetch
/// is handing a row's values to the model it is making.
@Model
final class HandoffHost {
    var title: String
    @Transient var scratch: HandoffGuest = HandoffGuest(label: "scratch")

    init(title: String) { self.title = title }
}

@Model
final class HandoffGuest {
    var label: String

    init(label: String) { self.label = label }
}

@Suite("ModelContext: the row handoff to models being made")
struct RowHandoffTests {
    @Test(
        "A model made by a default value while a fetch makes another gets its own values, not the row's",
        arguments: StoreKind.all)
    func nestedModelGetsItsOwnBackingData(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, HandoffHost.self, HandoffGuest.self)
        let setup = ModelContext(container)
        setup.insert(HandoffHost(title: "Dune"))
        setup.insert(HandoffHost(title: "Emma"))
        try setup.save()

        let hosts = try ModelContext(container).fetch(FetchDescriptor<HandoffHost>(sortBy: [SortDescriptor(\.title)]))
        #expect(hosts.map(\.title) == ["Dune", "Emma"])
        #expect(hosts.map(\.scratch.label) == ["scratch", "scratch"])
        #expect(
            hosts.allSatisfy {
                $0.scratch.modelContext == nil && $0.scratch.persistentBackingData !== $0.persistentBackingData
            })
    }
}
