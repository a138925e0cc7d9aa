import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// `fetch(_:batchSize:)` reads every matching key before its first batch, and its first batch with the query itself:
/// its results are a plain fetch's, in the same order, whatever the sort, limit and offset; a store's key list is
/// the keys its rows have, also when keys are excluded.
@Suite("A batched fetch's key list")
struct BatchedFetchKeyTests {
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    /// 300 saved readings with tied page counts, unrated ones, and dates in another order than the titles.
    private func savedReadings(_ kind: StoreKind) throws -> ModelContext {
        let context = ModelContext(try freshContainer(kind, Reading.self))
        for number in 0..<300 {
            context.insert(
                Reading(
                    title: "R\(number)", pages: (number * 37) % 101, isFinished: number.isMultiple(of: 4),
                    startedAt: Self.start.addingTimeInterval(Double((number * 53) % 300) * 3_600),
                    rating: number.isMultiple(of: 3) ? nil : number % 7))
        }
        try context.save()
        return context
    }

    private var descriptors: [FetchDescriptor<Reading>] {
        var limited = FetchDescriptor<Reading>(
            predicate: #Predicate { $0.pages > 20 }, sortBy: [SortDescriptor(\.startedAt, order: .reverse)])
        limited.fetchLimit = 50
        limited.fetchOffset = 7
        return [
            FetchDescriptor(sortBy: [SortDescriptor(\.pages)]),
            FetchDescriptor(sortBy: [SortDescriptor(\.pages, order: .reverse), SortDescriptor(\.title)]),
            FetchDescriptor(sortBy: [SortDescriptor(\.rating), SortDescriptor(\.startedAt)]),
            FetchDescriptor(predicate: #Predicate { $0.isFinished }, sortBy: [SortDescriptor(\.title)]),
            FetchDescriptor(predicate: #Predicate { $0.pages > 20 }, sortBy: [SortDescriptor(\.startedAt)]),
            limited,
            FetchDescriptor(predicate: #Predicate { $0.pages < 50 }),
            FetchDescriptor(predicate: #Predicate { $0.pages > 1_000 }, sortBy: [SortDescriptor(\.pages)]),
        ]
    }

    @Test("A batched fetch holds a plain fetch's models, in its order", arguments: StoreKind.all)
    func batchedFetchMatchesPlainFetch(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        for descriptor in descriptors {
            let plain = try context.fetch(descriptor).map(\.title)
            let batched = try context.fetch(descriptor, batchSize: 16)
            #expect(batched.count == plain.count)
            #expect(batched.map(\.title) == plain)
        }
    }

    @Test("A store's key list is the keys its fetch reads, excluded keys left out", arguments: StoreKind.all)
    func storeKeysMatchItsRows(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let entity = try #require(context.container.schema.entity(forType: Reading.self))
        var request = StoreFetch(
            entity: entity, columns: nil,
            ordering: [
                QueryOrdering(expression: .column("pages"), ascending: false, collation: .binary),
                QueryOrdering(expression: .column("title"), ascending: true, collation: .binary),
            ])
        var all: [Int64] = []
        try context.container.store.fetch(request) { all.append($0.int64(at: 0)) }
        #expect(all.count == 300)
        #expect(try context.container.store.fetchKeys(request) == all)
        request.excludedKeys = SortedKeys(all.enumerated().filter { $0.offset.isMultiple(of: 3) }.map(\.element))
        request.limit = 40
        request.offset = 5
        let kept = all.filter { !request.excludedKeys.contains($0) }
        #expect(try context.container.store.fetchKeys(request) == Array(kept[5..<45]))
        var read: [Int64] = []
        try context.container.store.fetch(request) { read.append($0.int64(at: 0)) }
        #expect(read == Array(kept[5..<45]))
    }

    @Test(
        "Keys that follow one another read their rows as a range, exactly those rows; other keys as a list",
        arguments: StoreKind.all)
    func consecutiveKeysReadAsARange(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let entity = try #require(context.container.schema.entity(forType: Reading.self))
        let all = try context.container.store.fetchKeys(StoreFetch(entity: entity, columns: nil)).sorted()
        var request = StoreFetch(entity: entity, columns: entity.columnPropertyIndexes)
        for keys in [Array(all[10..<60]), [all[3], all[4]], [all[4], all[3]], [all[1], all[2], all[4]], [all[7]]] {
            request.keyFilter = (StoreLayout.primaryKeyColumn, keys)
            let sql = try SelectStatement.sqlite.rows(request).render(in: SQLiteDialect()).sql
            let isRun = keys.count > 1 && zip(keys, keys.dropFirst()).allSatisfy { $0 + 1 == $1 }
            #expect(sql.contains(" BETWEEN ") == isRun, "\(keys)")
            var read: [Int64] = []
            try context.container.store.fetch(request) { read.append($0.int64(at: 0)) }
            #expect(read.sorted() == keys.sorted())
        }
        // A batched fetch in key order reads each batch as a range, one that leaves rows out as a list.
        for descriptor in [FetchDescriptor<Reading>(), FetchDescriptor(predicate: #Predicate { $0.pages > 20 })] {
            let plain = try context.fetch(descriptor).map(\.title)
            let batched = try context.fetch(descriptor, batchSize: 16)
            #expect(batched.map(\.title) == plain)
            #expect(batched.last?.title == plain.last)
        }
    }

    @Test(
        "A batched fetch read out of order, back and forth between batches, gives each position its model",
        arguments: StoreKind.all)
    func batchesReadOutOfOrder(_ kind: StoreKind) throws {
        let context = try savedReadings(kind)
        let descriptor = FetchDescriptor<Reading>(sortBy: [SortDescriptor(\.title)])
        let plain = try context.fetch(descriptor).map(\.title)
        let batched = try context.fetch(descriptor, batchSize: 16)
        // Past the batches kept (four), back to evicted ones, and within one batch in both directions.
        for position in [0, 250, 1, 251, 299, 17, 16, 100, 200, 120, 0, 15, 14, 299, 250] {
            #expect(batched[position].title == plain[position], "position \(position)")
        }
    }
}
