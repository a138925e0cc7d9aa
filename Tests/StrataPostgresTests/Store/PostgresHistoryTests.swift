import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

@Suite("Persistent history: PostgreSQL tables", .needsPostgreSQL)
struct PostgresHistoryTests {
    private typealias Fixtures = HistoryFixtures

    /// Runs `sql` in the store's schema on a connection of its own.
    private func run(_ store: TestStore, _ sql: String) throws {
        let url = try #require(PostgresTestServer.url)
        let connection = try PostgresConnection(conninfo: url.absoluteString)
        try connection.execute("SET search_path TO \"\(store.databaseSchema)\"")
        try connection.execute(sql)
    }

    @Test func storeCreatedWithoutHistoryTablesGetsThemAtOpen() throws {
        let store = TestStore(.postgres)
        let first = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        first.insert(HistoryTrip(name: "Lima", destination: "PE"))
        try first.save()
        try run(
            store, "DROP TABLE \(HistoryTables.transactions), \(HistoryTables.changes), \(HistoryTables.tombstones)")
        // A read-only open adds nothing and reads an empty history.
        let readOnly = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self, allowsSave: false))
        #expect(try Fixtures.history(readOnly).isEmpty)

        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        context.insert(HistoryTrip(name: "Quito", destination: "EC"))
        try context.save()
        #expect(try Fixtures.history(context).map { $0.changes.map(Fixtures.describe) } == [["insert HistoryTrip 2"]])
        #expect(try Fixtures.history(readOnly).count == 1)
    }

    @Test func storeWithoutKeyListsReadsAndGainsThem() throws {
        let store = TestStore(.postgres)
        let first = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        for name in ["Cusco", "Lima", "Puno"] { first.insert(HistoryTrip(name: name, destination: "PE")) }
        try first.save()
        try run(store, "ALTER TABLE \(HistoryTables.changes) DROP COLUMN keys")
        // A read-only open of a store written before key lists reads its (consecutive) rows.
        let readOnly = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self, allowsSave: false))
        #expect(try Fixtures.history(readOnly).first?.changes.count == 3)

        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        let trips = try context.fetch(FetchDescriptor<HistoryTrip>(sortBy: [SortDescriptor(\.name)]))
        for trip in trips where trip.name != "Lima" { trip.nights = 3 }
        try context.save()
        let keys = trips.filter { $0.name != "Lima" }.compactMap(\.persistentModelID.primaryKey).sorted()
        #expect(
            try Fixtures.history(readOnly).last?.changes.map(Fixtures.describe).sorted()
                == keys.map { "update HistoryTrip \($0) nights" })
    }

    @Test func identifiersOnlyGrowAcrossARolledBackSave() throws {
        let context = ModelContext(try freshContainer(.postgres, CatalogBook.self))
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        try context.save()
        let failing = ModelContext(context.container)
        failing.mergePolicy = .error
        failing.insert(CatalogBook(isbn: "1", title: "Dune again"))
        #expect(throws: SwiftDataError.self) { try failing.save() }
        context.insert(CatalogBook(isbn: "2", title: "Emma"))
        try context.save()
        let identifiers = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(
            \.transactionIdentifier)
        #expect(identifiers.count == 2)
        #expect(identifiers == identifiers.sorted() && Set(identifiers).count == 2)
    }
}
