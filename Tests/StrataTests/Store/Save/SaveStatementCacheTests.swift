import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A store keeps its save statements from one save to the next: an editor saving one changed property at a time
/// neither writes SQL text nor compiles a statement after its first save of that property.
@Suite("Save statements are kept between saves")
struct SaveStatementCacheTests {
    /// A container of trips holding one saved trip, and the store's statement cache.
    private func savedTrip(in store: TestStore) throws -> (ModelContainer, SaveStatementCache) {
        let container = try store.container(TripBase.Trip.self)
        let context = ModelContext(container)
        context.insert(TripBase.Trip(name: "Lisbon", days: 3))
        try context.save()
        let sqlStore = try #require(container.store as? any SQLPersistentStore)
        return (container, sqlStore.saveStatements)
    }

    /// Changes the trip's days in a new context (as each round of an editor's taps may) and saves.
    private func changeDays(in container: ModelContainer, to days: Int32) throws {
        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<TripBase.Trip>()).first)
        trip.days = days
        try context.save()
    }

    @Test("A change of a property saved before reuses the statement of the earlier save", arguments: StoreKind.all)
    func shapesAreKept(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let (container, cache) = try savedTrip(in: store)
        try changeDays(in: container, to: 4)
        let shapes = cache.count
        for days in Int32(5)...8 { try changeDays(in: container, to: days) }
        #expect(cache.count == shapes)
        let context = ModelContext(container)
        let trip = try #require(try context.fetch(FetchDescriptor<TripBase.Trip>()).first)
        trip.name = "Porto"
        try context.save()
        #expect(cache.count == shapes + 1)
        let reopened = try store.reopen(TripBase.Trip.self)
        let saved = try reopened.fetch(FetchDescriptor<TripBase.Trip>())
        #expect(saved.map(\.days) == [8])
        #expect(saved.map(\.name) == ["Porto"])
    }

    /// The second save takes its transaction identifier without the lookups its first made, through the same
    /// statement: it compiles none.
    @Test("A connection's second one-change save compiles nothing")
    func secondSaveCompilesNothing() throws {
        let store = TestStore(.sqlite)
        _ = try savedTrip(in: store)
        let container = try store.container(TripBase.Trip.self)
        let sqlite = try #require(container.store as? SQLiteStore)
        try changeDays(in: container, to: 4)
        let compiled = sqlite.compiledStatementCount
        try changeDays(in: container, to: 5)
        #expect(sqlite.compiledStatementCount == compiled)
    }

    @Test("A one-change save compiles nothing, and runs the update and one history row on SQLite")
    func oneChangeCompilesNothing() throws {
        let store = TestStore(.sqlite)
        let (container, _) = try savedTrip(in: store)
        try changeDays(in: container, to: 4)
        let sqlite = try #require(container.store as? SQLiteStore)
        let compiled = sqlite.compiledStatementCount
        let executed = sqlite.executedStatementCount
        try changeDays(in: container, to: 5)
        let changeExecuted = sqlite.executedStatementCount - executed
        // The fetch's query, then the checked UPDATE and the transaction row holding its change: no schema check,
        // the save before on the same connection being the last commit.
        #expect(sqlite.compiledStatementCount == compiled)
        #expect(changeExecuted == 3)

        // Once another container has committed, the next save checks the schema again.
        try changeDays(in: try store.container(TripBase.Trip.self), to: 6)
        let afterOther = sqlite.executedStatementCount
        try changeDays(in: container, to: 7)
        #expect(sqlite.executedStatementCount - afterOther == 4)
    }

    /// A store keeps the shape of the update it saved last: saves changing one property, another, then the first
    /// twice each write and record their own.
    @Test(arguments: StoreKind.all) func oneChangeSavesOfAlternatingShapes(_ kind: StoreKind) throws {
        let container = try HistoryFixtures.container(kind)
        let context = ModelContext(container)
        let lisbon = HistoryTrip(name: "Lisbon", destination: "PT")
        context.insert(lisbon)
        try context.save()
        lisbon.nights = 5
        try context.save()
        lisbon.destination = "Portugal"
        try context.save()
        lisbon.nights = 2
        try context.save()
        lisbon.nights = 3
        try context.save()

        let key = try #require(lisbon.persistentModelID.primaryKey)
        let changes = try HistoryFixtures.history(context).dropFirst().map { $0.changes.map(HistoryFixtures.describe) }
        #expect(
            changes == [
                ["update HistoryTrip \(key) nights"], ["update HistoryTrip \(key) destination"],
                ["update HistoryTrip \(key) nights"], ["update HistoryTrip \(key) nights"],
            ])
        let stored = try #require(try ModelContext(container).fetch(FetchDescriptor<HistoryTrip>()).first)
        #expect(stored.nights == 3 && stored.destination == "Portugal")
    }
}
