import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

/// Imports books on its own context, off the main actor.
@ModelActor
actor Importer {
    func importBooks(_ titles: [String]) throws -> [PersistentIdentifier] {
        let books = titles.map { Book(title: $0, author: "Unknown", publisher: "Self") }
        for book in books { modelContext.insert(book) }
        try modelContext.save()
        return books.map(\.persistentModelID)
    }

    func rename(_ identifier: PersistentIdentifier, to title: String) throws {
        let book: Book = try modelContext.existingModel(for: identifier)
        book.title = title
        try modelContext.save()
    }
}

@Suite("ModelActor")
struct ModelActorTests {
    @MainActor
    @Test(
        "A model actor's saves are seen by the main context, and identifiers cross between them",
        arguments: StoreKind.all)
    func importerSavesOnItsOwnContext(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(Book.self)
        let importer = Importer(modelContainer: container)
        let identifiers = try await importer.importBooks(["Dune", "Emma"])
        #expect(identifiers.count == 2)
        #expect(identifiers.allSatisfy { !$0.isTemporary })

        let main = container.mainContext
        let books = try main.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]))
        #expect(books.map(\.title) == ["Dune", "Emma"])
        #expect(books.map(\.persistentModelID) == identifiers)
        let emma: Book = try main.existingModel(for: identifiers[1])
        #expect(emma === books[1])

        try await importer.rename(books[0].persistentModelID, to: "Dune Messiah")
        let fresh = ModelContext(container)
        #expect(
            try fresh.fetch(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)])).map(\.title) == [
                "Dune Messiah", "Emma",
            ])
    }
}

@Suite("Concurrent saves")
struct ConcurrentSaveTests {
    @Test("A model actor and another context save at the same time; every row lands", arguments: StoreKind.all)
    func actorAndContextSaveConcurrently(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(Book.self)
        let importer = Importer(modelContainer: container)
        async let imported = withThrowingTaskGroup(of: Int.self) { group in
            for batch in 0..<10 {
                group.addTask { try await importer.importBooks(["A\(batch)-1", "A\(batch)-2"]).count }
            }
            return try await group.reduce(0, +)
        }
        let otherContainer = try store.container(Book.self)
        let local = Task.detached {
            let context = ModelContext(otherContainer)
            for batch in 0..<10 {
                context.insert(Book(title: "B\(batch)", author: "Local", publisher: "Self"))
                try context.save()
            }
        }
        #expect(try await imported == 20)
        try await local.value
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<Book>()) == 30)
    }
}
