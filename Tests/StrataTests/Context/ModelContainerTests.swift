import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("ModelContainer: opening stores, read-only, autosave")
struct ModelContainerTests {
    @Test("A container over a text file throws notAStrataStore and leaves the bytes alone")
    func textFileIsRejected() throws {
        let store = TemporaryStore()
        let text = Data("These are my notes, not a database.\n".utf8)
        try text.write(to: store.url)
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(Book.self)
        }?.underlyingError
        #expect(error?.caseName == "notAStrataStore")
        #expect(store.bytes() == text)
    }

    @Test("A corrupt SQLite file throws notAStrataStore and leaves the bytes alone")
    func corruptSQLiteIsRejected() throws {
        let store = TemporaryStore()
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try bytes.write(to: store.url)
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(Book.self)
        }?.underlyingError
        #expect(error?.caseName == "notAStrataStore")
        #expect(store.bytes() == bytes)
    }

    @Test(
        "A database (on PostgreSQL: a schema) of another program's tables throws notAStrataStore and stays untouched",
        arguments: StoreKind.all)
    func foreignDatabaseIsRejected(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        if kind == .postgres { try store.execute("CREATE SCHEMA \"\(store.databaseSchema)\"") }
        try store.execute(
            "CREATE TABLE \"Book\"(id INTEGER PRIMARY KEY, title TEXT); INSERT INTO \"Book\"(id, title) VALUES (1, 'Dune')"
        )
        let before = try store.snapshot()
        #expect(!before.isEmpty)
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(Book.self)
        }?.underlyingError
        #expect(error?.caseName == "notAStrataStore")
        #expect(try store.snapshot() == before)
        #expect(try store.texts("SELECT title FROM \"Book\"") == ["Dune"])
    }

    @Test(
        "A store holding rows of another shape that can't be migrated (a required property without a value) throws migrationRefused and stays untouched",
        arguments: StoreKind.all)
    func unmigratableShape(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container(ShapeA.Shelf.self))
            context.insert(ShapeA.Shelf(name: "Fiction"))
            try context.save()
        }
        let before = try store.snapshot()
        let error = #expect(throws: SwiftDataError.self) {
            try store.container(ShapeB.Shelf.self)
        }?.underlyingError
        #expect(error?.caseName == "migrationRefused")
        #expect(try store.snapshot() == before)
        let context = ModelContext(try store.container(ShapeA.Shelf.self))
        #expect(try context.fetch(FetchDescriptor<ShapeA.Shelf>()).map(\.name) == ["Fiction"])
    }

    @Test("A read-only container reads the store, and save throws readOnlyContainer", arguments: StoreKind.all)
    func readOnlyContainer(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        do {
            let context = ModelContext(try store.container(Book.self))
            context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
            try context.save()
        }
        let before = try store.snapshot()
        let context = ModelContext(try store.container(Book.self, allowsSave: false))
        let dune = try #require(try context.fetch(FetchDescriptor<Book>()).first)
        #expect(dune.title == "Dune")
        dune.title = "Dune Messiah"
        #expect(throws: StrataError.readOnlyContainer(operation: "save")) { try context.save() }
        context.insert(Book(title: "Emma", author: "Jane Austen", publisher: "Murray"))
        #expect(throws: StrataError.readOnlyContainer(operation: "save")) { try context.save() }
        #expect(try store.snapshot() == before)
    }

    @Test("A store in a directory that doesn't exist yet creates the directory")
    func createsMissingDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-core-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("nested/books.store")
        let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try context.save()
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    @Test("Configurations without schemas: the first holds every model, the others none")
    func configurationsWithoutSchemasShareTheFirstStore() throws {
        let container = try ModelContainer(
            for: Schema([Book.self]),
            configurations: [
                ModelConfiguration("a", isStoredInMemoryOnly: true),
                ModelConfiguration("b", isStoredInMemoryOnly: true),
            ])
        let context = ModelContext(container)
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try context.save()
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 1)
        #expect(container.configurations.map(\.name).sorted() == ["a", "b"])
    }

    @Test("In-memory containers don't share rows")
    func inMemoryContainersAreSeparate() throws {
        let first = ModelContext(try inMemoryContainer(Book.self))
        first.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try first.save()
        let second = ModelContext(try inMemoryContainer(Book.self))
        #expect(try second.fetchCount(FetchDescriptor<Book>()) == 0)
        #expect(try first.fetchCount(FetchDescriptor<Book>()) == 1)
    }

    @MainActor
    @Test("The main context saves an insert by itself once the main actor is free", arguments: StoreKind.all)
    func mainContextAutosaves(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(Book.self)
        let main = container.mainContext
        #expect(main.autosaveEnabled)
        main.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        let other = ModelContext(container)
        #expect(try other.fetchCount(FetchDescriptor<Book>()) == 0)
        for _ in 0..<20 where main.hasChanges {
            await Task.yield()
        }
        if main.hasChanges { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!main.hasChanges)
        #expect(main.autosaveError == nil)
        #expect(try other.fetch(FetchDescriptor<Book>()).map(\.title) == ["Dune"])
    }

    @MainActor
    @Test("Changes made in one synchronous stretch are autosaved together, in one save", arguments: StoreKind.all)
    func autosaveBatchesChanges(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, Book.self)
        let main = container.mainContext
        let saves = SaveRecorder(main)
        for title in ["Dune", "Emma", "Kindred"] {
            main.insert(Book(title: title, author: "Someone", publisher: "Someone"))
        }
        for _ in 0..<20 where main.hasChanges {
            await Task.yield()
        }
        if main.hasChanges { try await Task.sleep(for: .milliseconds(100)) }
        #expect(saves.recorded.map(\.inserted.count) == [3])
    }

    @MainActor
    @Test("A failed autosave is kept in autosaveError and the changes stay pending", arguments: StoreKind.all)
    func failedAutosaveIsReported(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        _ = try store.container(Book.self)
        let container = try store.container(Book.self, allowsSave: false)
        let main = container.mainContext
        main.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        for _ in 0..<20 where main.autosaveError == nil {
            await Task.yield()
        }
        if main.autosaveError == nil { try await Task.sleep(for: .milliseconds(100)) }
        #expect(main.autosaveError == .readOnlyContainer(operation: "save"))
        #expect(main.hasChanges)
    }

    @Test(
        "A read-only container over a store of another shape throws schemaMismatch naming the changes",
        arguments: StoreKind.all)
    func schemaMismatchNamesDifferences(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        _ = try store.container(ShapeA.Shelf.self)
        do {
            _ = try store.container(ShapeB.Shelf.self, allowsSave: false)
            Issue.record("opening a store of another shape succeeded")
        } catch let error as SwiftDataError {
            guard case .schemaMismatch(let path, let differences)? = error.underlyingError else {
                Issue.record("expected schemaMismatch, got \(error)")
                return
            }
            #expect(kind == .postgres ? path.contains(store.databaseSchema) : path == store.file.url.path)
            let text = differences.joined(separator: " ")
            #expect(text.contains("name"))
            #expect(text.contains("label"))
        }
    }

    @Test(
        "An identifier from another store is not found in this one, even when the same row number is registered (regression)",
        arguments: StoreKind.all)
    func identifierFromAnotherStore(_ kind: StoreKind) throws {
        let first = ModelContext(try freshContainer(kind, Book.self))
        let dune = Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton")
        first.insert(dune)
        try first.save()
        let second = ModelContext(try freshContainer(kind, Book.self))
        second.insert(Book(title: "Emma", author: "Jane Austen", publisher: "Murray"))
        try second.save()
        #expect(throws: StrataError.modelNotInContext(dune.persistentModelID)) {
            let _: Book = try second.existingModel(for: dune.persistentModelID)
        }
        let registered: Book? = second.registeredModel(for: dune.persistentModelID)
        #expect(registered == nil)
        #expect(second.model(for: dune.persistentModelID).isDeleted)
    }

    @Test("A context made with ModelContext(_:) does not autosave", arguments: StoreKind.all)
    func plainContextDoesNotAutosave(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, Book.self)
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled)
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        for _ in 0..<5 { await Task.yield() }
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 0)
    }
}
