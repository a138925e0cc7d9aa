import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// History rows that stand for several scattered changes (`HistoryKeyList`) read back exactly as the changes were
/// made, on both stores, and stores of the first history layout gain key lists when opened to write.
@Suite("Persistent history: compact rows") struct HistoryCompactionTests {
    private typealias Fixtures = HistoryFixtures

    /// Saves 60 trips, then changes the nights of a scattered third of them and deletes a scattered few.
    private func scatteredChanges(_ context: ModelContext) throws -> (updated: [Int64], deleted: [Int64]) {
        for index in 0..<60 { context.insert(HistoryTrip(name: "\(index)", destination: "x")) }
        try context.save()
        let trips = try context.fetch(FetchDescriptor<HistoryTrip>(sortBy: [SortDescriptor(\.name, order: .reverse)]))
        var updated: [Int64] = []
        var deleted: [Int64] = []
        for (offset, trip) in trips.enumerated() {
            let key = trip.persistentModelID.primaryKey ?? 0
            if offset % 3 == 0 {
                trip.nights = 4
                updated.append(key)
            } else if offset % 7 == 0 {
                context.delete(trip)
                deleted.append(key)
            }
        }
        try context.save()
        return (updated, deleted)
    }

    @Test(arguments: StoreKind.all) func scatteredChangesReadBackAsMade(_ kind: StoreKind) throws {
        let context = ModelContext(try HistoryFixtures.container(kind))
        let (updated, deleted) = try scatteredChanges(context)
        let last = try #require(try Fixtures.history(context).last)
        let described = last.changes.map(Fixtures.describe)
        #expect(
            described.filter { $0.hasPrefix("update") }.sorted()
                == updated.map { "update HistoryTrip \($0) nights" }.sorted())
        #expect(
            described.filter { $0.hasPrefix("delete") }.sorted() == deleted.map { "delete HistoryTrip \($0)" }.sorted())
        #expect(described.count == updated.count + deleted.count)
        // Deleted trips keep their preserved names, matched by position within the compact row.
        let names = last.changes.compactMap { change -> String? in
            guard case .delete(let delete) = change else { return nil }
            return (delete as? DefaultHistoryDelete<HistoryTrip>)?.tombstone[\HistoryTrip.name] as? String
        }
        #expect(names.count == deleted.count)
    }

    @Test(arguments: StoreKind.all) func scatteredUpdatesOfOneAttributeSetAreOneRow(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        _ = try scatteredChanges(context)
        let rows = try Fixtures.changeRows(
            store,
            columns: #"""
                CAST(kind AS TEXT) || ' ' || CAST(count AS TEXT) || CASE WHEN keys IS NULL THEN ' no list' ELSE ' list' END
                """#)
        // The inserts (consecutive keys, no list), then the updates and the deletes, each one row with a key list.
        #expect(rows.count == 3)
        #expect(rows.first == "0 60 no list")
        #expect(rows.dropFirst().allSatisfy { $0.hasSuffix(" list") && !$0.hasSuffix("no list") })
    }

    @Test func storeOfTheFirstHistoryLayoutGainsKeyLists() throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
            context.insert(HistoryTrip(name: "a", destination: "x"))
            context.insert(HistoryTrip(name: "b", destination: "x"))
            try context.save()
        }
        // Make the file as the first history layout wrote it: no `keys` column, layout version 1.
        do {
            let connection = try SQLiteConnection(location: .file(store.url.path))
            try connection.execute(Fixtures.sqliteHistoryLayout(1))
            try connection.execute("ALTER TABLE strata_history_changes DROP COLUMN keys")
        }
        let readOnly = try ModelContainer(
            for: HistoryTrip.self, HistoryPlanner.self,
            configurations: ModelConfiguration(url: store.url, allowsSave: false))
        #expect(
            try Fixtures.history(ModelContext(readOnly)).map { $0.changes.map(Fixtures.describe) }
                == [["insert HistoryTrip 1", "insert HistoryTrip 2"]])

        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        let (updated, _) = try scatteredChanges(context)
        let last = try #require(try Fixtures.history(context).last)
        #expect(
            last.changes.map(Fixtures.describe).filter { $0.hasPrefix("update") }.sorted()
                == updated.map { "update HistoryTrip \($0) nights" }.sorted())
        #expect(try Fixtures.history(ModelContext(readOnly)).first?.changes.count == 2)
    }
}
