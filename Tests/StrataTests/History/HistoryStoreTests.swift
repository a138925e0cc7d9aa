import Foundation
import StrataPostgres
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Persistent history: stores, writers and migrations")
struct HistoryStoreTests {
    private typealias Fixtures = HistoryFixtures

    @Test(arguments: StoreKind.all) func appReadsWhatAnotherWriterSavedSinceItsToken(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let app = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let appContext = ModelContext(app)
        appContext.insert(HistoryTrip(name: "Lisbon", destination: "PT"))
        try appContext.save()
        var lastToken = try #require(try Fixtures.history(appContext).last?.token)

        // Another container on the same store (another process would do the same) saves as the widget.
        let widgetContainer = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let widget = ModelContext(widgetContainer)
        widget.author = "widget"
        widget.insert(HistoryTrip(name: "Kyoto", destination: "JP"))
        widget.insert(HistoryTrip(name: "Quito", destination: "EC"))
        try widget.save()

        let descriptor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > lastToken })
        let transactions = try appContext.fetchHistory(descriptor)
        #expect(transactions.map(\.author) == ["widget"])
        let inserted = transactions.flatMap(\.changes).compactMap { change -> PersistentIdentifier? in
            if case .insert = change { return change.changedPersistentIdentifier }
            return nil
        }
        let names = try inserted.map { identifier in
            try #require(
                try appContext.fetch(
                    FetchDescriptor<HistoryTrip>(predicate: #Predicate { $0.persistentModelID == identifier })
                ).first
            ).name
        }
        #expect(names == ["Kyoto", "Quito"])
        lastToken = try #require(transactions.last?.token)
        #expect(try Fixtures.history(after: lastToken, appContext).isEmpty)
    }

    @Test func storeWithoutHistoryTablesGetsThemWhenOpened() throws {
        let store = TemporaryStore()
        do {
            let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
            context.insert(HistoryTrip(name: "a", destination: "x"))
            try context.save()
        }
        // Make the file as a version without history wrote it.
        do {
            let connection = try SQLiteConnection(location: .file(store.url.path))
            try connection.execute(
                "DROP TABLE strata_history_transactions; DROP TABLE strata_history_changes; DROP TABLE strata_history_tombstones"
            )
            try connection.run(
                "UPDATE strata_metadata SET value = json_remove(value, '$.history') WHERE key = 'model'", [])
        }
        let readOnly = try ModelContainer(
            for: HistoryTrip.self, HistoryPlanner.self,
            configurations: ModelConfiguration(url: store.url, allowsSave: false))
        #expect(try Fixtures.history(ModelContext(readOnly)).isEmpty)

        let context = ModelContext(try store.container(HistoryTrip.self, HistoryPlanner.self))
        #expect(try Fixtures.history(context).isEmpty)
        context.insert(HistoryTrip(name: "b", destination: "y"))
        try context.save()
        #expect(try Fixtures.history(context).map { $0.changes.map(Fixtures.describe) } == [["insert HistoryTrip 2"]])
        // The read-only container's next fetch notices the tables another writer added.
        #expect(try Fixtures.history(ModelContext(readOnly)).count == 1)
    }

    @Test(arguments: StoreKind.all)
    func historySurvivesAMigration(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(TripBase.Trip.self) { context in
            context.insert(TripBase.Trip(name: "Lisbon", days: 4))
        }
        let context = try store.reopen(TripAddedOptional.Trip.self)
        let before = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(before.count == 1)
        let trip = try #require(try context.fetch(FetchDescriptor<TripAddedOptional.Trip>()).first)
        trip.budget = 100
        try context.save()
        let token = before[0].token
        let after = try context.fetchHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token > token }))
        guard case .update(let update)? = after.first?.changes.first,
            let typed = update as? DefaultHistoryUpdate<TripAddedOptional.Trip>
        else {
            Issue.record("expected an update, found \(after)")
            return
        }
        #expect(typed.updatedAttributes.map { $0 as AnyKeyPath } == [\TripAddedOptional.Trip.budget])
        #expect(typed.changedPersistentIdentifier == trip.persistentModelID)
    }

    @Test(arguments: StoreKind.all) func configurationLimitsTheHistoryKept(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        /// A container over the store keeping history up to `limit` transactions or for `interval` seconds.
        func container(limit: Int? = nil, interval: TimeInterval? = nil) throws -> ModelContainer {
            var configuration = try store.configuration()
            if var sqlite = configuration as? ModelConfiguration {
                (sqlite.historyRetentionLimit, sqlite.historyRetentionInterval) = (limit, interval)
                configuration = sqlite
            } else if var postgres = configuration as? PostgresConfiguration {
                (postgres.historyRetentionLimit, postgres.historyRetentionInterval) = (limit, interval)
                configuration = postgres
            }
            return try ModelContainer(
                for: Schema([HistoryTrip.self, HistoryPlanner.self]), migrationPlan: nil,
                configurations: [configuration])
        }
        do {
            let context = ModelContext(try container(limit: 10))
            for index in 1...70 {
                context.insert(HistoryTrip(name: "\(index)", destination: "x"))
                try context.save()
            }
            // Pruned at the 64th save, in its transaction: 55…64 kept, then 65…70 added.
            #expect(try Fixtures.history(context).map(\.transactionIdentifier) == Array(55...70))
        }
        let context = ModelContext(try container(limit: 10))
        #expect(try Fixtures.history(context).map(\.transactionIdentifier) == Array(61...70))

        let reopened = ModelContext(try container(interval: 0))
        #expect(try Fixtures.history(reopened).isEmpty)
        #expect(throws: SwiftDataError.self) {
            try Fixtures.history(
                after: DefaultHistoryToken(storeIdentifier: reopened.store.identifier, transactionIdentifier: 69),
                reopened)
        }
    }
}
