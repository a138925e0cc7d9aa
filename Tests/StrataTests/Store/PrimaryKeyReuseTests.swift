import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A store issues each primary key once, whatever happened to the row that had it: deleted, its table rebuilt by a
/// migration, or the store written by a version of Strata that let SQLite give the largest rowid again.
@Suite("Primary keys are never issued twice")
struct PrimaryKeyReuseTests {
    /// Inserts trips named `names` through a container of `TripBase`, returning their keys.
    private func insertTrips(_ names: [String], into store: TestStore) throws -> [Int64] {
        let context = ModelContext(try store.container(TripBase.Trip.self))
        let trips = names.map { TripBase.Trip(name: $0, days: 1) }
        for trip in trips { context.insert(trip) }
        try context.save()
        return trips.compactMap(\.persistentModelID.primaryKey)
    }

    /// Deletes the trip whose key is `key`.
    private func deleteTrip(_ key: Int64, in store: TestStore) throws {
        let context = ModelContext(try store.container(TripBase.Trip.self))
        let trips = try context.fetch(FetchDescriptor<TripBase.Trip>())
        for trip in trips where trip.persistentModelID.primaryKey == key { context.delete(trip) }
        try context.save()
    }

    @Test("A table rebuilt by a migration continues after the largest key it ever issued", arguments: StoreKind.all)
    func afterARebuild(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let keys = try insertTrips(["Lisbon", "Oslo", "Porto"], into: store)
        try deleteTrip(keys[2], in: store)

        // Removing an attribute rebuilds SQLite's table (PostgreSQL drops the column in place).
        let context = try store.reopen(TripRemovedNote.Trip.self)
        if kind == .sqlite { #expect(try !tableSQL(store.file, "Trip").contains("\"note\"")) }
        #expect(try context.fetch(FetchDescriptor<TripRemovedNote.Trip>()).map(\.name).sorted() == ["Lisbon", "Oslo"])
        let trip = TripRemovedNote.Trip(name: "Bergen")
        context.insert(trip)
        try context.save()
        let key = try #require(trip.persistentModelID.primaryKey)
        #expect(key > keys[2])
    }

    @Test(
        "A store written before keys were recorded keeps its rows and issues none of the keys its history names",
        arguments: StoreKind.all)
    func aStoreOfThePreviousLayout(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let keys = try insertTrips(["Lisbon", "Oslo", "Porto"], into: store)
        try deleteTrip(keys[2], in: store)
        // The previous SQLite layout is this one without the table of issued keys (the tables' DDL is unchanged);
        // PostgreSQL's identity sequences have always kept theirs.
        if kind == .sqlite { try store.execute("DROP TABLE \"\(StoreLayout.primaryKeysTable)\"") }

        let context = ModelContext(try store.container(TripBase.Trip.self))
        #expect(try context.fetch(FetchDescriptor<TripBase.Trip>()).map(\.name).sorted() == ["Lisbon", "Oslo"])
        let trip = TripBase.Trip(name: "Bergen", days: 2)
        context.insert(trip)
        try context.save()
        #expect(try #require(trip.persistentModelID.primaryKey) > keys[2])
        #expect(try store.hasTable(StoreLayout.primaryKeysTable) == (kind == .sqlite))
    }

    @Test("Rows inserted behind Strata's back are never given again", arguments: StoreKind.all)
    func rowsWrittenByAnotherProgram(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let keys = try insertTrips(["Lisbon"], into: store)
        try store.execute(
            "INSERT INTO \"Trip\" (\"Z_PK\", \"name\", \"days\") VALUES (\(keys[0] + 10), 'Written elsewhere', 1)")
        let next = try insertTrips(["Oslo"], into: store)
        #expect(next[0] > keys[0] + 10 || kind == .postgres)
        #expect(try store.reopen(TripBase.Trip.self).fetchCount(FetchDescriptor<TripBase.Trip>()) == 3)
    }

    @Test("An insert costs no statement of its own: the key marks are read and written once per table and save")
    func statementsPerSave() throws {
        let store = TestStore(.sqlite)
        _ = try insertTrips(["Lisbon"], into: store)
        let container = try store.container(TripBase.Trip.self)
        let sqlite = try #require(container.store as? SQLiteStore)
        let context = ModelContext(container)
        // The container's first save checks the schema; the two measured, each following the one before with
        // nothing committed between, don't.
        context.insert(TripBase.Trip(name: "First", days: 1))
        try context.save()
        for index in 0..<50 { context.insert(TripBase.Trip(name: "Trip \(index)", days: 1)) }
        let before = sqlite.executedStatementCount
        try context.save()
        let few = sqlite.executedStatementCount - before
        for index in 0..<100 { context.insert(TripBase.Trip(name: "More \(index)", days: 1)) }
        let middle = sqlite.executedStatementCount
        try context.save()
        #expect(sqlite.executedStatementCount - middle == few + 50)
    }
}
