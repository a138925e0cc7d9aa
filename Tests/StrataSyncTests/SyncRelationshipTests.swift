import Foundation
import Strata
import StrataPostgres
import StrataSync
import StrataTestSupport
import Testing

@Model final class SyncShelf {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    @Relationship(deleteRule: .nullify, inverse: \SyncBook.shelf) var books: [SyncBook] = []

    init(name: String) {
        id = UUID()
        self.name = name
    }
}

@Model final class SyncBook {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var title: String
    var shelf: SyncShelf?

    init(title: String, shelf: SyncShelf? = nil) {
        id = UUID()
        self.title = title
        self.shelf = shelf
    }
}

@Suite(
    "StrataSync: to-one relationships travel as the identity of the row they point to",
    .needsPostgreSQL)
struct SyncRelationshipTests {
    private let schema = Schema([SyncShelf.self, SyncBook.self])

    /// Every book of a container as `title@shelf`, and every shelf as `shelf[books]`, sorted.
    private func shelves(_ container: ModelContainer) throws -> [String] {
        let context = ModelContext(container)
        let books = try context.fetch(FetchDescriptor<SyncBook>()).map { "\($0.title)@\($0.shelf?.name ?? "-")" }
        let shelves = try context.fetch(FetchDescriptor<SyncShelf>()).map {
            "\($0.name)[\($0.books.map(\.title).sorted().joined(separator: ","))]"
        }
        return (books + shelves).sorted()
    }

    @Test func shelvesAndBooksArriveLinkedAndAMoveTravels() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone", schema)
        let laptop = try scenario.device("laptop", schema)
        let phoneSync = try scenario.engine(phone)
        let laptopSync = try scenario.engine(laptop)

        let context = ModelContext(phone)
        let fiction = SyncShelf(name: "Fiction")
        context.insert(fiction)
        context.insert(SyncBook(title: "Dune", shelf: fiction))
        context.insert(SyncBook(title: "Emma", shelf: fiction))
        context.insert(SyncBook(title: "Loose"))
        try context.save()
        try await phoneSync.sendChanges()
        try await laptopSync.fetchChanges()
        let linked = ["Dune@Fiction", "Emma@Fiction", "Fiction[Dune,Emma]", "Loose@-"]
        #expect(try shelves(laptop) == linked)
        #expect(try shelves(scenario.server(schema)) == linked)

        // The laptop makes a shelf and moves a book onto it; another book leaves its shelf.
        let laptopContext = ModelContext(laptop)
        let books = try laptopContext.fetch(FetchDescriptor<SyncBook>())
        let read = SyncShelf(name: "Read")
        laptopContext.insert(read)
        books.first { $0.title == "Dune" }?.shelf = read
        books.first { $0.title == "Emma" }?.shelf = nil
        books.first { $0.title == "Loose" }?.shelf = read
        try laptopContext.save()
        try await laptopSync.sendChanges()
        try await phoneSync.fetchChanges()
        let moved = ["Dune@Read", "Emma@-", "Fiction[]", "Loose@Read", "Read[Dune,Loose]"]
        #expect(try shelves(phone) == moved)
        #expect(try shelves(scenario.server(schema)) == moved)
    }

    @Test func aShelfDeletedOnTheHubLeavesItsBooksWithoutOne() async throws {
        let scenario = try SyncScenario()
        let phone = try scenario.device("phone", schema)
        let phoneSync = try scenario.engine(phone)
        let context = ModelContext(phone)
        let shelf = SyncShelf(name: "Old")
        context.insert(shelf)
        context.insert(SyncBook(title: "Ulysses", shelf: shelf))
        try context.save()
        try await phoneSync.sendChanges()
        try await phoneSync.fetchChanges()

        let server = ModelContext(try scenario.server(schema))
        for shelf in try server.fetch(FetchDescriptor<SyncShelf>()) { server.delete(shelf) }
        try server.save()
        try await phoneSync.fetchChanges()
        #expect(try shelves(phone) == ["Ulysses@-"])
    }
}
