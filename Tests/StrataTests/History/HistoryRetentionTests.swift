import Foundation
import Strata
import StrataPostgres
import Testing

@testable import StrataTestFixtures

/// `historyRetentionLimit` and `historyRetentionInterval` keep the same history on both stores: enforced every
/// 64th save, in its transaction, and when the store opens to write.
@Suite("Persistent history: retention") struct HistoryRetentionTests {
    private typealias Fixtures = HistoryFixtures

    /// A container over `store` keeping at most `limit` transactions, or none older than `interval` seconds.
    private func container(
        _ store: TestStore, limit: Int? = nil, interval: TimeInterval? = nil
    ) throws -> ModelContainer {
        let schema = Schema([HistoryTrip.self, HistoryPlanner.self])
        switch store.kind {
        case .sqlite:
            var configuration = ModelConfiguration(url: store.fileURL)
            configuration.historyRetentionLimit = limit
            configuration.historyRetentionInterval = interval
            return try ModelContainer(for: schema, configurations: configuration)
        case .postgres:
            let url = try #require(PostgresTestServer.url)
            var configuration = PostgresConfiguration(url: url, databaseSchema: store.databaseSchema)
            configuration.historyRetentionLimit = limit
            configuration.historyRetentionInterval = interval
            return try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        }
    }

    @Test(arguments: StoreKind.all) func configurationLimitsTheHistoryKept(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let first: Int64
        do {
            let context = ModelContext(try container(store, limit: 10))
            for index in 1...70 {
                context.insert(HistoryTrip(name: "\(index)", destination: "x"))
                try context.save()
            }
            let identifiers = try Fixtures.history(context).map(\.transactionIdentifier)
            first = try #require(identifiers.first)
            // Pruned at the 64th transaction, in its save: the ten before it and it kept, then the rest added.
            #expect(identifiers.count == 16 && identifiers.last == identifiers[9] + 6, "\(identifiers)")
        }
        let context = ModelContext(try container(store, limit: 10))
        let kept = try Fixtures.history(context).map(\.transactionIdentifier)
        #expect(kept.count == 10 && kept.first == first + 6, "\(kept)")

        let reopened = ModelContext(try container(store, interval: 0))
        #expect(try Fixtures.history(reopened).isEmpty)
        #expect(throws: SwiftDataError.self) {
            try Fixtures.history(
                after: DefaultHistoryToken(storeIdentifier: reopened.store.identifier, transactionIdentifier: first),
                reopened)
        }
        // Without limits nothing more is deleted.
        let unlimited = ModelContext(try container(store))
        unlimited.insert(HistoryTrip(name: "last", destination: "x"))
        try unlimited.save()
        #expect(try Fixtures.history(unlimited).count == 1)
    }

    @Test func configurationsWithOtherLimitsDiffer() throws {
        let url = try #require(URL(string: "postgresql://localhost/strata"))
        var limited = PostgresConfiguration(url: url)
        limited.historyRetentionLimit = 5
        #expect(limited != PostgresConfiguration(url: url))
    }
}
