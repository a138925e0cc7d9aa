import Foundation
import Testing
@testable import Strata

@Suite("ModelContainer: opening stores, read-only, autosave")
struct ModelContainerTests {
    @Test("A container over a text file throws notAStrataStore and leaves the bytes alone")
    func textFileIsRejected() throws {
        let store = TemporaryStore()
        let text = Data("These are my notes, not a database.\n".utf8)
        try text.write(to: store.url)
        let error = #expect(throws: StrataError.self) {
            try store.container(Book.self)
        }
        #expect(error?.caseName == "notAStrataStore")
        #expect(store.bytes() == text)
    }

    @Test("A corrupt SQLite file throws notAStrataStore and leaves the bytes alone")
    func corruptSQLiteIsRejected() throws {
        let store = TemporaryStore()
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try bytes.write(to: store.url)
        let error = #expect(throws: StrataError.self) {
            try store.container(Book.self)
        }
        #expect(error?.caseName == "notAStrataStore")
        #expect(store.bytes() == bytes)
    }

    @Test("A SQLite database without strata_metadata throws notAStrataStore and stays untouched")
    func foreignSQLiteIsRejected() throws {
        let store = TemporaryStore()
        do {
            let foreign = try SQLiteConnection(location: .file(store.url.path))
            try foreign.execute("CREATE TABLE Book(id INTEGER PRIMARY KEY, title TEXT)")
            try foreign.run("INSERT INTO Book(title) VALUES (?)", [.text("Dune")])
        }
        let before = store.bytes()
        #expect(!before.isEmpty)
        let error = #expect(throws: StrataError.self) {
            try store.container(Book.self)
        }
        #expect(error?.caseName == "notAStrataStore")
        #expect(store.bytes() == before)
        let check = try SQLiteConnection(location: .file(store.url.path), readOnly: true)
        #expect(try check.query("SELECT name FROM sqlite_master WHERE type = 'table'", []) == [[.text("Book")]])
    }

    @Test("A store made for another shape of the same class throws schemaMismatch and stays untouched")
    func schemaMismatch() throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(ShapeA.Shelf.self))
            context.insert(ShapeA.Shelf(name: "Fiction"))
            try context.save()
        }
        let before = store.bytes()
        let error = #expect(throws: StrataError.self) {
            try store.container(ShapeB.Shelf.self)
        }
        #expect(error?.caseName == "schemaMismatch")
        #expect(store.bytes() == before)
        let context = ModelContext(try store.container(ShapeA.Shelf.self))
        #expect(try context.fetch(FetchDescriptor<ShapeA.Shelf>()).map(\.name) == ["Fiction"])
    }

    @Test("A read-only container reads the store, and save throws readOnlyContainer")
    func readOnlyContainer() throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(Book.self))
            context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
            try context.save()
        }
        let before = store.bytes()
        let context = ModelContext(try store.container(Book.self, allowsSave: false))
        let dune = try #require(try context.fetch(FetchDescriptor<Book>()).first)
        #expect(dune.title == "Dune")
        dune.title = "Dune Messiah"
        #expect(throws: StrataError.readOnlyContainer(operation: "save")) { try context.save() }
        context.insert(Book(title: "Emma", author: "Jane Austen", publisher: "Murray"))
        #expect(throws: StrataError.readOnlyContainer(operation: "save")) { try context.save() }
        #expect(store.bytes() == before)
    }

    @Test("More than one configuration is refused")
    func oneConfigurationOnly() {
        let error = #expect(throws: StrataError.self) {
            try ModelContainer(for: Schema([Book.self]), configurations: [
                ModelConfiguration("a", isStoredInMemoryOnly: true), ModelConfiguration("b", isStoredInMemoryOnly: true),
            ])
        }
        #expect(error?.caseName == "invalidSchema")
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
    @Test("The main context saves an insert by itself once the main actor is free")
    func mainContextAutosaves() async throws {
        let store = TemporaryStore()
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

    @Test("A context made with ModelContext(_:) does not autosave")
    func plainContextDoesNotAutosave() async throws {
        let container = try inMemoryContainer(Book.self)
        let context = ModelContext(container)
        #expect(!context.autosaveEnabled)
        context.insert(Book(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        for _ in 0..<5 { await Task.yield() }
        #expect(context.hasChanges)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 0)
    }
}
