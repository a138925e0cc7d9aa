import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Persistent history: recording")
struct HistoryRecordingTests {
    private typealias Fixtures = HistoryFixtures

    @Test(arguments: StoreKind.all) func everySaveIsOneTransactionWithItsChanges(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let lisbon = HistoryTrip(name: "Lisbon", destination: "PT")
        let kyoto = HistoryTrip(name: "Kyoto", destination: "JP")
        context.insert(lisbon)
        context.insert(kyoto)
        try context.save()
        lisbon.nights = 4
        lisbon.destination = "Portugal"
        try context.save()
        context.delete(kyoto)
        try context.save()

        let transactions = try Fixtures.history(context)
        #expect(transactions.count == 3)
        let lisbonKey = try #require(lisbon.persistentModelID.primaryKey)
        #expect(
            transactions.map { $0.changes.map(Fixtures.describe) } == [
                ["insert HistoryTrip 1", "insert HistoryTrip 2"],
                ["update HistoryTrip \(lisbonKey) destination,nights"],
                ["delete HistoryTrip 2"],
            ])
        // Identifiers and tokens grow in commit order; the store and process are named.
        #expect(transactions.map(\.transactionIdentifier) == transactions.map(\.transactionIdentifier).sorted())
        #expect(transactions[0].token < transactions[1].token && transactions[1].token < transactions[2].token)
        #expect(transactions.allSatisfy { $0.storeIdentifier == context.store.identifier && $0.author == nil })
        #expect(transactions[0].processIdentifier == String(ProcessInfo.processInfo.processIdentifier))
        #expect(transactions[0].bundleIdentifier == StoredHistoryTransaction.currentBundleIdentifier)
        #expect(transactions[0].changes[0].changedPersistentIdentifier == lisbon.persistentModelID)
    }

    @Test(arguments: StoreKind.all) func authorIsStampedOnTheContextsTransactions(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let app = ModelContext(container)
        let widget = ModelContext(container)
        widget.author = "widget"
        app.insert(HistoryTrip(name: "a", destination: "x"))
        try app.save()
        widget.insert(HistoryTrip(name: "b", destination: "y"))
        try widget.save()
        #expect(try Fixtures.history(app).map(\.author) == [nil, "widget"])
    }

    @Test(arguments: StoreKind.all) func deletionKeepsPreservedValuesInItsTombstone(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let trip = HistoryTrip(name: "Reykjavik", destination: "IS", nights: 3)
        context.insert(trip)
        try context.save()
        context.delete(trip)
        try context.save()

        let deletion = try #require(try Fixtures.history(context).last?.changes.first)
        guard case .delete(let change) = deletion, let delete = change as? DefaultHistoryDelete<HistoryTrip> else {
            Issue.record("expected a deletion of a HistoryTrip, found \(deletion)")
            return
        }
        #expect(delete.tombstone[\HistoryTrip.name] as? String == "Reykjavik")
        // Only `.preserveValueOnDeletion` attributes are kept.
        #expect(delete.tombstone[\HistoryTrip.destination] == nil)
        #expect(Array(delete.tombstone).count == 1)
    }

    @Test(arguments: StoreKind.all) func batchDeleteRecordsEachRemovedRowWithItsTombstone(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        for (name, nights) in [("a", 1), ("b", 5), ("c", 7)] {
            context.insert(HistoryTrip(name: name, destination: "x", nights: nights))
        }
        try context.save()
        try context.delete(model: HistoryTrip.self, where: #Predicate { $0.nights > 2 })
        try context.save()

        let changes = try #require(try Fixtures.history(context).last?.changes)
        #expect(changes.map(Fixtures.describe) == ["delete HistoryTrip 2", "delete HistoryTrip 3"])
        let names = changes.compactMap { change -> String? in
            guard case .delete(let delete) = change else { return nil }
            return (delete as? DefaultHistoryDelete<HistoryTrip>)?.tombstone[\HistoryTrip.name] as? String
        }
        #expect(names == ["b", "c"])
    }

    @Test(arguments: StoreKind.all) func relationshipChangesAreUpdatesNamingTheRelationship(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let trip = HistoryTrip(name: "Oslo", destination: "NO")
        let planner = HistoryPlanner(name: "Ada")
        context.insert(trip)
        context.insert(planner)
        try context.save()
        trip.planner = planner
        trip.nights = 2
        try context.save()

        let changes = try #require(try Fixtures.history(context).last?.changes.map(Fixtures.describe))
        let tripKey = try #require(trip.persistentModelID.primaryKey)
        #expect(changes == ["update HistoryTrip \(tripKey) nights,planner"])
    }

    /// Keys written by their rows' updates are named with the updates' attributes; a key that waits for an
    /// inserted row is named when written, joining its row's update. Updates of one attribute list are one history
    /// row wherever they are in the save, listed in the order of each list's first update.
    @Test(arguments: StoreKind.all) func movedKeysJoinTheirRowsUpdates(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let context = ModelContext(container)
        let trips = (1...10).map { HistoryTrip(name: "\($0)", destination: "x") }
        for trip in trips { context.insert(trip) }
        let ada = HistoryPlanner(name: "Ada")
        context.insert(ada)
        try context.save()
        for trip in trips.dropLast() { trip.nights = 2 }
        trips[2].planner = ada
        trips[5].planner = ada
        trips[7].planner = HistoryPlanner(name: "Bo")
        trips[9].planner = ada
        try context.save()

        let changes = try #require(try Fixtures.history(context).last?.changes.map(Fixtures.describe))
        #expect(
            changes == [
                "update HistoryTrip 1 nights", "update HistoryTrip 2 nights", "update HistoryTrip 4 nights",
                "update HistoryTrip 5 nights", "update HistoryTrip 7 nights", "update HistoryTrip 9 nights",
                "update HistoryTrip 3 nights,planner", "update HistoryTrip 6 nights,planner",
                "update HistoryTrip 8 nights,planner", "update HistoryTrip 10 planner", "insert HistoryPlanner 2",
            ])
        // One row per attribute list of the updates, and the insert.
        #expect(
            try Fixtures.changeRows(
                store, columns: "CAST(kind AS TEXT)",
                where: #""transaction" = (SELECT max(id) FROM strata_history_transactions)"#
            ).count == 4)
    }

    /// Updates that switch between three sets of changed properties, two of them alternating, write each row's own
    /// columns and name each row's own attributes (the save keeps its last two statements and attribute lists).
    @Test(arguments: StoreKind.all) func updatesSwitchingBetweenShapesWriteTheirOwnColumns(_ kind: StoreKind) throws {
        // Shapes by row: nights, nights+destination, nights, destination, nights+destination, nights, …
        let shapes = ["n", "nd", "n", "d", "nd", "n", "d", "nd"]
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let trips = shapes.indices.map { HistoryTrip(name: "\($0 + 1)", destination: "x") }
        for trip in trips { context.insert(trip) }
        try context.save()
        for (trip, shape) in zip(trips, shapes) {
            if shape.contains("n") { trip.nights = 3 }
            if shape.contains("d") { trip.destination = "y" }
        }
        try context.save()

        let changes = try #require(try Fixtures.history(context).last?.changes.map(Fixtures.describe))
        let names = ["n": "nights", "nd": "destination,nights", "d": "destination"]
        // Each attribute list's updates together, in the order of each list's first update.
        let expected = ["n", "nd", "d"].flatMap { listed in
            zip(1...8, shapes).filter { $0.1 == listed }.map { row, shape in
                "update HistoryTrip \(row) \(names[shape] ?? "")"
            }
        }
        #expect(changes == expected)
        let reread = try ModelContext(container).fetch(FetchDescriptor<HistoryTrip>(sortBy: [SortDescriptor(\.name)]))
        #expect(reread.map(\.nights) == shapes.map { $0.contains("n") ? 3 : 1 })
        #expect(reread.map(\.destination) == shapes.map { $0.contains("d") ? "y" : "x" })
    }

    @Test(arguments: StoreKind.all) func failedSaveRecordsNoTransaction(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, CatalogBook.self)
        let context = ModelContext(container)
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        try context.save()
        let other = ModelContext(container)
        other.mergePolicy = .error
        other.insert(CatalogBook(isbn: "2", title: "Emma"))
        other.insert(CatalogBook(isbn: "1", title: "Dune again"))
        #expect(throws: SwiftDataError.self) { try other.save() }
        let transactions = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(transactions.count == 1)
        #expect(transactions.first?.changes.count == 1)
    }

    @Test(arguments: StoreKind.all) func upsertIsRecordedAsAnUpdateOfTheStoredRow(_ kind: StoreKind) throws {
        let container = try freshContainer(kind, CatalogBook.self)
        let context = ModelContext(container)
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        try context.save()
        context.insert(CatalogBook(isbn: "1", title: "Dune (2nd)"))
        try context.save()
        let last = try #require(try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).last)
        guard case .update(let update)? = last.changes.first, let typed = update as? DefaultHistoryUpdate<CatalogBook>
        else {
            Issue.record("expected an update, found \(last.changes)")
            return
        }
        #expect(typed.updatedAttributes.count == 2)
        #expect(typed.changedPersistentIdentifier.primaryKey == 1)
    }

    @Test(arguments: StoreKind.all) func consecutiveRowsShareOneRecordedRow(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let container = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let context = ModelContext(container)
        for index in 0..<100 { context.insert(HistoryTrip(name: "\(index)", destination: "x")) }
        try context.save()
        let trips = try context.fetch(FetchDescriptor<HistoryTrip>(sortBy: [SortDescriptor(\.nights)]))
        for trip in trips where trip.name != "50" { trip.nights = 2 }
        try context.save()

        let transactions = try Fixtures.history(context)
        #expect(transactions[0].changes.count == 100)
        #expect(transactions[1].changes.count == 99)
        #expect(Set(transactions.flatMap(\.changes).map(\.changedPersistentIdentifier)).count == 100)
        // Inserts of keys 1…100: one row; updates of 1…50 and 52…100: one more, its keys listed.
        #expect(try Fixtures.changeRows(store, columns: "CAST(kind AS TEXT)").count == 2)
    }
}
