import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Model final class KeyRunItem {
    var position: Int
    init(position: Int) {
        self.position = position
    }
}

/// A batched fetch of a whole table reads its keys from the table's count and its least and greatest key when they
/// are one unbroken run, and reads them one by one otherwise; either way the collection holds the same models.
@Suite("A batched fetch's key list on SQLite")
struct SQLiteStoreKeyRangeTests {
    private func makeContext(count: Int) throws -> (ModelContext, SQLiteStore) {
        let container = try freshContainer(.sqlite, KeyRunItem.self)
        let context = ModelContext(container)
        for position in 0..<count { context.insert(KeyRunItem(position: position)) }
        try context.save()
        let store = try #require(container.store as? SQLiteStore)
        return (context, store)
    }

    /// The positions of a batched fetch's models, and how many statements the fetch itself ran.
    private func fetchAll(
        _ context: ModelContext, _ store: SQLiteStore, _ descriptor: FetchDescriptor<KeyRunItem>
    ) throws -> (positions: [Int], statements: Int) {
        let before = store.executedStatementCount
        let results = try context.fetch(descriptor, batchSize: 4)
        let statements = store.executedStatementCount - before
        return (results.map(\.position), statements)
    }

    @Test("A whole table with unbroken keys costs one statement for its keys, whichever rows were deleted at its ends")
    func unbrokenKeysAreOneStatement() throws {
        let (context, store) = try makeContext(count: 30)
        var fetched = try fetchAll(context, store, FetchDescriptor<KeyRunItem>())
        #expect(fetched.positions == Array(0..<30))
        #expect(fetched.statements == 1)
        let ends = try context.fetch(
            FetchDescriptor<KeyRunItem>(predicate: #Predicate { $0.position == 0 || $0.position == 29 }))
        for item in ends { context.delete(item) }
        try context.save()
        fetched = try fetchAll(context, store, FetchDescriptor<KeyRunItem>())
        #expect(fetched.positions == Array(1..<29))
        #expect(fetched.statements == 1)
    }

    @Test("Keys with a gap are read one by one, after the statement that found the gap")
    func keysWithAGapAreRead() throws {
        let (context, store) = try makeContext(count: 30)
        let middle = try context.fetch(FetchDescriptor<KeyRunItem>(predicate: #Predicate { $0.position == 12 }))
        for item in middle { context.delete(item) }
        try context.save()
        let fetched = try fetchAll(context, store, FetchDescriptor<KeyRunItem>())
        #expect(fetched.positions == Array(0..<12) + Array(13..<30))
        #expect(fetched.statements == 2)
    }

    @Test("The store tells the keys from the table's bounds only for a whole table without gaps, in key order")
    func keyRunIsToldOnlyForAWholeUnbrokenTable() throws {
        let (context, store) = try makeContext(count: 10)
        let entity = try #require(store.schema.entity(named: "KeyRunItem"))
        let byKey = QueryOrdering(expression: .column("Z_PK"), ascending: true, collation: .binary)
        let whole = StoreFetch(entity: entity, columns: nil, ordering: [byKey])
        #expect(try store.unbrokenKeyRun(whole) == Array(1...10))
        let reversed = QueryOrdering(expression: .column("Z_PK"), ascending: false, collation: .binary)
        #expect(try store.unbrokenKeyRun(StoreFetch(entity: entity, columns: nil, ordering: [reversed])) == nil)
        #expect(try store.unbrokenKeyRun(StoreFetch(entity: entity, columns: nil, ordering: [byKey], limit: 3)) == nil)
        let condition = QueryExpression.compare(.column("position"), .greater, .value(.integer(4)))
        let matching = StoreFetch(entity: entity, columns: nil, condition: condition, ordering: [byKey])
        #expect(try store.unbrokenKeyRun(matching) == nil)
        let fourth = try context.fetch(FetchDescriptor<KeyRunItem>(predicate: #Predicate { $0.position == 3 }))
        for item in fourth { context.delete(item) }
        try context.save()
        #expect(try store.unbrokenKeyRun(whole) == nil)
        #expect(try store.fetchKeys(whole) == [1, 2, 3] + Array(5...10))
    }

    @Test("An empty table has no keys, told by one statement")
    func emptyTable() throws {
        let (context, store) = try makeContext(count: 0)
        let fetched = try fetchAll(context, store, FetchDescriptor<KeyRunItem>())
        #expect(fetched.positions.isEmpty)
        #expect(fetched.statements == 1)
    }

    @Test("A fetch with a condition, a sort, a limit or an offset reads its keys as before, in one statement")
    func otherFetchesReadTheirKeys() throws {
        let (context, store) = try makeContext(count: 30)
        let descriptors = [
            FetchDescriptor<KeyRunItem>(predicate: #Predicate { $0.position >= 10 }),
            FetchDescriptor<KeyRunItem>(sortBy: [SortDescriptor(\.position, order: .reverse)]),
            {
                var limited = FetchDescriptor<KeyRunItem>()
                limited.fetchLimit = 7
                limited.fetchOffset = 3
                return limited
            }(),
        ]
        let expected = [Array(10..<30), Array((0..<30).reversed()), Array(3..<10)]
        for (descriptor, positions) in zip(descriptors, expected) {
            let fetched = try fetchAll(context, store, descriptor)
            #expect(fetched.positions == positions)
            #expect(fetched.statements == 1)
        }
    }
}
