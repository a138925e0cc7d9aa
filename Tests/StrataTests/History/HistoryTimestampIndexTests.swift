import Foundation
import Testing

@testable import Strata

/// The history's transactions are indexed by time, so retention by age and fetches bounded by a date read the rows
/// they select instead of the whole table; stores of the earlier layout gain the index when opened to write.
@Suite("Persistent history: the index by time") struct HistoryTimestampIndexTests {
    /// The indexes on the transactions table, by name.
    private func indexes(_ store: TestStore) throws -> Set<String> {
        switch store.kind {
        case .sqlite:
            Set(
                try store.texts(
                    "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'strata_history_transactions'"))
        case .postgres:
            Set(
                try store.texts(
                    "SELECT indexname FROM pg_indexes WHERE tablename = 'strata_history_transactions' "
                        + "AND schemaname = current_schema()"))
        }
    }

    @Test(arguments: StoreKind.all) func aNewStoreIndexesTransactionsByTime(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { $0.insert(HistoryTrip(name: "a", destination: "x")) }
        #expect(try indexes(store).contains(HistoryTables.timestampIndex))
    }

    @Test(arguments: StoreKind.all) func aStoreOfTheEarlierLayoutGainsTheIndex(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { $0.insert(HistoryTrip(name: "a", destination: "x")) }
        // Make the store as layout version 2 wrote it: no index by time.
        try store.execute("DROP INDEX \(HistoryTables.timestampIndex)")
        switch kind {
        case .sqlite:
            try store.execute("UPDATE strata_metadata SET value = json_set(value, '$.history', 2) WHERE key = 'model'")
        case .postgres:
            try store.execute(
                "UPDATE strata_metadata SET value = jsonb_set(value::jsonb, '{history}', '2')::text WHERE key = 'model'"
            )
        }
        #expect(try !indexes(store).contains(HistoryTables.timestampIndex))

        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        #expect(try indexes(store).contains(HistoryTables.timestampIndex))
        context.insert(HistoryTrip(name: "b", destination: "x"))
        try context.save()
        #expect(try HistoryFixtures.history(context).count == 2)
    }

    @Test func retentionByAgeSearchesTheIndex() throws {
        let store = TestStore(.sqlite)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { $0.insert(HistoryTrip(name: "a", destination: "x")) }
        let older = StoreHistoryFetch(conditions: [.timestamp(.less, Date())])
        let (sql, bindings) = older.selection(columns: "\(identifier: "id")", ordered: false).render(
            in: SQLiteDialect())
        let connection = try SQLiteConnection(location: .file(store.fileURL.path), readOnly: true)
        let plan = try connection.query("EXPLAIN QUERY PLAN " + sql, bindings).compactMap { row -> String? in
            if case .text(let detail)? = row.last { detail } else { nil }
        }
        #expect(plan.contains { $0.contains("INDEX \(HistoryTables.timestampIndex)") }, "\(plan)")
    }
}
