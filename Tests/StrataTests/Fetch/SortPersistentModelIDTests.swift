import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Sorting by persistentModelID")
struct SortPersistentModelIDTests {
    @Test("SortDescriptor(\\.persistentModelID) orders by the primary key in the store")
    func ordersByThePrimaryKey() throws {
        let container = try inMemoryContainer(Book.self)
        let entity = try #require(container.schema.entity(for: Book.self))
        let descending = try FetchPlan.ordering(
            for: SortDescriptor(\Book.persistentModelID, order: .reverse), entity: entity)
        #expect(
            try SelectStatement.sqlite.rows(StoreFetch(entity: entity, columns: nil, ordering: [descending]))
                .render(in: SQLiteDialect()).sql == #"SELECT "Z_PK" FROM "Book" ORDER BY "Z_PK" DESC"#)
    }

    @Test(
        "Identifiers order saved models by row, and unsaved ones after them, as the store will",
        arguments: StoreKind.all)
    func identifierOrderMatchesTheStore(_ kind: StoreKind) throws {
        let context = ModelContext(try freshContainer(kind, Book.self))
        let first = Book(title: "A", author: "", publisher: "")
        let second = Book(title: "B", author: "", publisher: "")
        context.insert(first)
        context.insert(second)
        try context.save()
        let pending = Book(title: "C", author: "", publisher: "")
        context.insert(pending)
        #expect(first.persistentModelID < second.persistentModelID)
        #expect(second.persistentModelID < pending.persistentModelID)
        #expect(!(pending.persistentModelID < first.persistentModelID))
    }

    @MainActor
    @Test(
        "A live observer sorted by persistentModelID applies saves incrementally in the store's order",
        arguments: StoreKind.all)
    func observerSortedByIdentifier(_ kind: StoreKind) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        _ = try LiveFixtures.insert([("a", 1), ("b", 2)], into: writer)
        let observer = try ResultsObserver(
            sortBy: [SortDescriptor(\LiveTask.persistentModelID, order: .reverse)],
            modelContainer: container)
        #expect(observer.results.map(\.title) == ["b", "a"])
        _ = try LiveFixtures.insert([("c", 0)], into: writer)
        #expect(await LiveFixtures.eventually { observer.results.count == 3 })
        #expect(observer.results.map(\.title) == ["c", "b", "a"])
        #expect(observer.incrementalRefreshCount == 1)
    }
}
