import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A store keeps the statement of each fetch it ran: the same fetch run again (a list read on every appearance,
/// live results re-running their query) neither builds nor renders SQL, and a fetch with other values gets its own
/// statement and its own rows.
@Suite("Fetch statements are kept between runs of the same fetch")
struct FetchStatementCacheTests {
    /// A container holding trips of 1 to 12 days, and the store's fetch statement cache.
    private func trips(in store: TestStore) throws -> (ModelContainer, FetchStatementCache) {
        let container = try store.container(TripBase.Trip.self)
        let context = ModelContext(container)
        for days in Int32(1)...12 { context.insert(TripBase.Trip(name: "Trip \(days)", days: days)) }
        try context.save()
        let sqlStore = try #require(container.store as? any SQLPersistentStore)
        return (container, sqlStore.fetchStatements)
    }

    /// The names of the trips longer than `days`, longest first, at most `limit` of them, read in a new context.
    private func longest(in container: ModelContainer, over days: Int32, limit: Int) throws -> [String] {
        var descriptor = FetchDescriptor<TripBase.Trip>(
            predicate: #Predicate { $0.days > days }, sortBy: [SortDescriptor(\.days, order: .reverse)])
        descriptor.fetchLimit = limit
        return try ModelContext(container).fetch(descriptor).map(\.name)
    }

    @Test(
        "The same fetch reuses its statement; other values get their own statement and rows", arguments: StoreKind.all)
    func repeatedFetchesReuseTheirStatement(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let (container, cache) = try trips(in: store)
        #expect(try longest(in: container, over: 4, limit: 3) == ["Trip 12", "Trip 11", "Trip 10"])
        let kept = cache.count
        for _ in 0..<3 { #expect(try longest(in: container, over: 4, limit: 3) == ["Trip 12", "Trip 11", "Trip 10"]) }
        #expect(cache.count == kept)
        // Another threshold or limit is another statement, with the rows of its own values.
        #expect(try longest(in: container, over: 10, limit: 3) == ["Trip 12", "Trip 11"])
        #expect(try longest(in: container, over: 4, limit: 1) == ["Trip 12"])
        #expect(cache.count == kept + 2)
        #expect(try longest(in: container, over: 4, limit: 3) == ["Trip 12", "Trip 11", "Trip 10"])
        #expect(cache.count == kept + 2)
    }

    @Test("Counts and pending changes read the rows of the fetch's own values", arguments: StoreKind.all)
    func countsAndPendingChanges(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let (container, _) = try trips(in: store)
        let context = ModelContext(container)
        for days in [Int32(3), 9, 3, 11, 9] {
            let descriptor = FetchDescriptor<TripBase.Trip>(predicate: #Predicate { $0.days > days })
            #expect(try context.fetchCount(descriptor) == Int(12 - days))
        }
        // An unsaved change is left out of the store's rows by key; the statement for the same fetch stays right.
        let descriptor = FetchDescriptor<TripBase.Trip>(
            predicate: #Predicate { $0.days > 9 }, sortBy: [SortDescriptor(\.days)])
        #expect(try context.fetch(descriptor).map(\.days) == [10, 11, 12])
        let eleven = try #require(try context.fetch(descriptor).first { $0.days == 11 })
        eleven.days = 2
        #expect(try context.fetch(descriptor).map(\.days) == [10, 12])
        #expect(try context.fetchCount(descriptor) == 2)
        try context.save()
        #expect(try ModelContext(container).fetch(descriptor).map(\.days) == [10, 12])
    }

    @Test(
        "Text Swift calls equal but the store sees as other bytes gets a statement of its own", arguments: StoreKind.all
    )
    func exactValues(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let (container, cache) = try trips(in: store)
        let kept = cache.count
        let context = ModelContext(container)
        for name in ["Caf\u{E9}", "Cafe\u{301}", "Caf\u{E9}"] {
            #expect(
                try context.fetch(FetchDescriptor<TripBase.Trip>(predicate: #Predicate { $0.name == name })).isEmpty)
        }
        #expect(cache.count == kept + 2)
    }

    /// `enumerate` in key order runs one query per page, after the last key seen: the key is bound in one kept
    /// statement, so all the pages of an enumeration add one entry, and a predicate still applies to every page.
    @Test("Enumerate's pages share one kept statement and keep the predicate", arguments: StoreKind.all)
    func enumeratePagesShareOneStatement(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let (container, cache) = try trips(in: store)
        #expect(try longest(in: container, over: 4, limit: 3) == ["Trip 12", "Trip 11", "Trip 10"])
        let kept = cache.count
        var descriptor = FetchDescriptor<TripBase.Trip>()
        descriptor.includePendingChanges = false
        var days: [Int32] = []
        try ModelContext(container).enumerate(descriptor, batchSize: 2) { days.append($0.days) }
        #expect(days == Array(1...12))
        #expect(cache.count == kept + 1)
        // Again, in pages of another size: the same statement, another limit bound in it.
        days = []
        try ModelContext(container).enumerate(descriptor, batchSize: 5) { days.append($0.days) }
        #expect(days == Array(1...12))
        #expect(cache.count == kept + 2)
        // With a predicate, ANDed with each page's start key: the trips of more than 4 days, in pages of 3.
        var longer = FetchDescriptor<TripBase.Trip>(predicate: #Predicate { $0.days > 4 && $0.days != 8 })
        longer.includePendingChanges = false
        days = []
        try ModelContext(container).enumerate(longer, batchSize: 3) { days.append($0.days) }
        #expect(days == [5, 6, 7, 9, 10, 11, 12])
        #expect(cache.count == kept + 3)
        // The kept statement runs with each enumeration's own keys: after a row is deleted and another inserted.
        let context = ModelContext(container)
        for trip in try context.fetch(FetchDescriptor<TripBase.Trip>(predicate: #Predicate { $0.days == 6 })) {
            context.delete(trip)
        }
        context.insert(TripBase.Trip(name: "Trip 13", days: 13))
        try context.save()
        let beforeAgain = cache.count
        days = []
        try ModelContext(container).enumerate(longer, batchSize: 3) { days.append($0.days) }
        #expect(days == [5, 7, 9, 10, 11, 12, 13])
        #expect(cache.count == beforeAgain)
    }
}
