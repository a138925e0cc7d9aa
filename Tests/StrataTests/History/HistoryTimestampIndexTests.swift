import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

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
            try store.execute(HistoryFixtures.sqliteHistoryLayout(2))
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

    /// Deleting the oldest thousand of 20,000 transactions reads their changes by the primary key: PostgreSQL would
    /// otherwise hash the selection and scan every change, so pruning cost grew with the history (5 ms at 10,000
    /// transactions, 28 ms at 100,000 in `strata-bench --history`), and finding the deleted range by age walked
    /// every newer transaction.
    @Test(.needsPostgreSQL) func deletingOldHistoryOnPostgreSQLReadsOnlyTheRowsItDeletes() throws {
        let url = try PostgresTestServer.requiredURL()
        let store = TestStore(.postgres)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { $0.insert(HistoryTrip(name: "a", destination: "x")) }
        try store.execute(
            """
            INSERT INTO strata_history_transactions ("timestamp", author, bundle, process) \
            SELECT g, NULL, 'tests', 'tests' FROM generate_series(1, 20000) g;
            INSERT INTO strata_history_changes ("transaction", position, kind, entity, "row", count) \
            SELECT id, 0, 0, 'HistoryTrip', id, 1 FROM strata_history_transactions WHERE "timestamp" <= 20000;
            ANALYZE
            """)
        let connection = try PostgresConnection(
            conninfo: url.absoluteString, settings: ["SET search_path TO \"\(store.databaseSchema)\""])
        for request in [
            StoreHistoryFetch(conditions: [.transaction(.lessOrEqual, 1_001)]),
            StoreHistoryFetch(conditions: [.timestamp(.less, Date(timeIntervalSinceReferenceDate: 1_001))]),
        ] {
            let selection = request.selection(columns: "\(identifier: "id")", ordered: false)
            let authors = HistoryTables.selectedAuthors(
                request.selection(columns: "\(identifier: "id"), \(identifier: "author")", ordered: false))
            let range = try connection.query(authors)
            // Finding the range reads the selected rows, not every newer one from the primary key's far end.
            let rangePlan = try connection.query("EXPLAIN " + authors)
            let rangeLines = (0..<rangePlan.count).compactMap { rangePlan.text(row: $0, column: 0) }
            #expect(
                !rangeLines.contains { $0.contains("Backward") || $0.contains("Seq Scan") },
                "\(rangeLines.joined(separator: "\n"))")
            for deletion in HistoryTables.deletions(
                of: selection, from: range.int64(row: 0, column: 1), through: range.int64(row: 0, column: 2))
            {
                let plan = try connection.query("EXPLAIN " + deletion)
                let lines = (0..<plan.count).compactMap { plan.text(row: $0, column: 0) }
                // (The tombstones table is empty here: scanning it costs nothing.)
                let scans = lines.filter {
                    $0.contains("Seq Scan on \(HistoryTables.changes)")
                        || $0.contains("Seq Scan on \(HistoryTables.transactions)")
                }
                #expect(scans.isEmpty, "\(lines.joined(separator: "\n"))")
            }
        }
    }
}
