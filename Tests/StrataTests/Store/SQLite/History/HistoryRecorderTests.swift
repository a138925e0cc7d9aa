import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A save whose history is one change row keeps it in its transaction row on SQLite (history layout version 5), and
/// reads back as every other change does; stores of the earlier layout gain the columns when opened to write and
/// read as before when opened read-only.
@Suite("Persistent history: a save's lone change in its transaction row")
struct HistoryRecorderTests {
    private typealias Fixtures = HistoryFixtures

    /// Each save's changes, described, oldest first.
    private func described(_ context: ModelContext) throws -> [[String]] {
        try Fixtures.history(context).map { $0.changes.map(Fixtures.describe) }
    }

    /// The `strata_history_changes` rows of the store, counted.
    private func changesTableRows(_ store: TestStore) throws -> Int {
        Int(try store.texts("SELECT CAST(count(*) AS TEXT) FROM strata_history_changes").first ?? "") ?? -1
    }

    @Test(arguments: StoreKind.all) func loneChangesReadBackAsOtherChanges(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        let lisbon = HistoryTrip(name: "Lisbon", destination: "PT")
        context.insert(lisbon)
        try context.save()
        lisbon.nights = 4
        try context.save()
        lisbon.nights = 5
        lisbon.destination = "Portugal"
        try context.save()
        // Two inserts of consecutive keys: still one change row, so still in the transaction row.
        context.insert(HistoryTrip(name: "Kyoto", destination: "JP"))
        context.insert(HistoryTrip(name: "Oslo", destination: "NO"))
        try context.save()
        // Two rows: an update and an insert.
        lisbon.nights = 6
        context.insert(HistoryPlanner(name: "Ada"))
        try context.save()
        context.delete(lisbon)
        try context.save()

        #expect(
            try described(context) == [
                ["insert HistoryTrip 1"], ["update HistoryTrip 1 nights"],
                ["update HistoryTrip 1 destination,nights"], ["insert HistoryTrip 2", "insert HistoryTrip 3"],
                ["update HistoryTrip 1 nights", "insert HistoryPlanner 1"], ["delete HistoryTrip 1"],
            ])
        // The deleted trip's preserved name, a tombstone of the lone change at position 0.
        let deletion = try #require(try Fixtures.history(context).last?.changes.first)
        guard case .delete(let delete) = deletion else {
            Issue.record("expected a delete, got \(deletion)")
            return
        }
        #expect((delete as? DefaultHistoryDelete<HistoryTrip>)?.tombstone[\HistoryTrip.name] as? String == "Lisbon")
        // SQLite writes only the two-row save's rows into the changes table; PostgreSQL writes all seven.
        #expect(try changesTableRows(store) == (kind == .sqlite ? 2 : 7))
        #expect(try Fixtures.changeRows(store, columns: "CAST(kind AS TEXT)").count == 7)
    }

    @Test func aOneChangeSaveWritesOneHistoryRow() throws {
        let store = TestStore(.sqlite)
        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        let trip = HistoryTrip(name: "Lisbon", destination: "PT")
        context.insert(trip)
        try context.save()
        let sqlite = try #require(context.container.store as? SQLiteStore)
        let before = sqlite.executedStatementCount
        trip.nights = 2
        try context.save()
        // The `UPDATE` and the transaction row holding its change (`BEGIN` and `COMMIT` are not counted).
        #expect(sqlite.executedStatementCount == before + 2)
        #expect(try changesTableRows(store) == 0)
    }

    @Test func historyDeletionTakesTheLoneChangesWithTheirTransactions() throws {
        let store = TestStore(.sqlite)
        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        for name in ["a", "b", "c"] {
            context.insert(HistoryTrip(name: name, destination: "x"))
            try context.save()
        }
        let second = try Fixtures.history(context)[1].transactionIdentifier
        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(
                predicate: #Predicate { $0.transactionIdentifier <= second }))
        #expect(try described(context) == [["insert HistoryTrip 3"]])
        #expect(try Fixtures.changeRows(store, columns: "CAST(\"row\" AS TEXT)") == ["3"])
    }

    @Test func aStoreOfLayoutFourGainsTheColumnsAndReadsAsBefore() throws {
        let store = TestStore(.sqlite)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { context in
            context.insert(HistoryTrip(name: "a", destination: "x"))
            try context.save()
            context.insert(HistoryTrip(name: "b", destination: "x"))
            context.insert(HistoryPlanner(name: "Ada"))
        }
        try store.execute(Fixtures.sqliteHistoryLayout(4))
        #expect(try changesTableRows(store) == 3)
        let expected = [["insert HistoryTrip 1"], ["insert HistoryTrip 2", "insert HistoryPlanner 1"]]

        let readOnly = try store.container(HistoryTrip.self, HistoryPlanner.self, allowsSave: false)
        #expect(try described(ModelContext(readOnly)) == expected)
        #expect(try store.texts("SELECT name FROM pragma_table_info('strata_history_transactions')").count == 5)

        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        #expect(try store.texts("SELECT name FROM pragma_table_info('strata_history_transactions')").count == 11)
        context.insert(HistoryTrip(name: "c", destination: "x"))
        try context.save()
        #expect(try described(context) == expected + [["insert HistoryTrip 3"]])
        #expect(try changesTableRows(store) == 3)
        #expect(try described(ModelContext(readOnly)) == expected + [["insert HistoryTrip 3"]])
    }
}
