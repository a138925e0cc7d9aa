import Foundation
@testable import Strata
@testable import StrataPostgres
import Testing

@Suite("Persistent history: PostgreSQL tables")
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
        guard StoreKind.all.contains(.postgres) else { return }
        let store = TestStore(.postgres)
        let first = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        first.insert(HistoryTrip(name: "Lima", destination: "PE"))
        try first.save()
        try run(store, "DROP TABLE \(HistoryTables.transactions), \(HistoryTables.changes), \(HistoryTables.tombstones)")
        // A read-only open adds nothing and reads an empty history.
        let readOnly = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self, allowsSave: false))
        #expect(try Fixtures.history(readOnly).isEmpty)

        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        context.insert(HistoryTrip(name: "Quito", destination: "EC"))
        try context.save()
        #expect(try Fixtures.history(context).map { $0.changes.map(Fixtures.describe) } == [["insert HistoryTrip 2"]])
        #expect(try Fixtures.history(readOnly).count == 1)
    }

    @Test func identifiersOnlyGrowAcrossARolledBackSave() throws {
        guard StoreKind.all.contains(.postgres) else { return }
        let context = ModelContext(try freshContainer(.postgres, CatalogBook.self))
        context.insert(CatalogBook(isbn: "1", title: "Dune"))
        try context.save()
        let failing = ModelContext(context.container)
        failing.mergePolicy = .error
        failing.insert(CatalogBook(isbn: "1", title: "Dune again"))
        #expect(throws: StrataError.self) { try failing.save() }
        context.insert(CatalogBook(isbn: "2", title: "Emma"))
        try context.save()
        let identifiers = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>()).map(\.transactionIdentifier)
        #expect(identifiers.count == 2)
        #expect(identifiers == identifiers.sorted() && Set(identifiers).count == 2)
    }
}
