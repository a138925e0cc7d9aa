import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A transaction identifier (a history token's value) is never given twice: not after the newest transactions are
/// deleted, not after every one is, not after an erase, and not in a store whose transactions table was written
/// with `AUTOINCREMENT` (layout version 3), which is rebuilt without it when opened to write.
@Suite("Persistent history: transaction identifiers only grow") struct HistoryTransactionIdentifierTests {
    private typealias Descriptor = HistoryDescriptor<DefaultHistoryTransaction>

    /// Saves a new trip and returns its transaction's identifier.
    private func saveTrip(_ name: String, in context: ModelContext) throws -> Int64 {
        context.insert(HistoryTrip(name: name, destination: "x"))
        try context.save()
        return try #require(try HistoryFixtures.history(context).map(\.transactionIdentifier).max())
    }

    @Test(arguments: StoreKind.all) func identifiersGrowAfterTheNewestHistoryIsDeleted(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        _ = try saveTrip("a", in: context)
        let b = try saveTrip("b", in: context)

        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.transactionIdentifier == b }))
        let c = try saveTrip("c", in: context)
        #expect(c > b)

        try context.deleteHistory(Descriptor())
        #expect(try HistoryFixtures.history(context).isEmpty)
        let d = try saveTrip("d", in: context)
        #expect(d > c)

        // Another container of the store, after all history is gone again.
        let reopened = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        try reopened.deleteHistory(Descriptor())
        let e = try saveTrip("e", in: reopened)
        #expect(e > d)

        try reopened.container.erase()
        let f = try saveTrip("f", in: ModelContext(reopened.container))
        #expect(f > e)
    }

    /// A save that follows its container's own last save takes the next identifier without reading the newest
    /// deleted one: not once another container has deleted that save's transaction, nor after its own container
    /// deleted it between two saves.
    @Test(arguments: StoreKind.all) func identifiersGrowWhenAnotherContainerDeletesTheNewest(_ kind: StoreKind) throws {
        let store = TestStore(kind)
        let writer = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        let other = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        var newest = try saveTrip("first", in: writer)
        // Each step deletes the writer's newest transaction (or all history) from one container or the other,
        // between two saves of the writer, whose second would follow its first were nothing committed between.
        let steps: [(deleter: ModelContext, all: Bool)] = [(other, false), (writer, false), (other, true)]
        for (number, step) in steps.enumerated() {
            _ = try saveTrip("before \(number)", in: writer)
            let deleted = try #require(try HistoryFixtures.history(writer).map(\.transactionIdentifier).max())
            try step.deleter.deleteHistory(
                step.all ? Descriptor() : Descriptor(predicate: #Predicate { $0.transactionIdentifier == deleted }))
            let next = try saveTrip("after \(number)", in: writer)
            #expect(next > deleted)
            #expect(next > newest)
            newest = next
        }
    }

    @Test func aNewSQLiteStoreWritesNoSequence() throws {
        let store = TestStore(.sqlite)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) { $0.insert(HistoryTrip(name: "a", destination: "x")) }
        let definition = try store.texts(
            "SELECT sql FROM sqlite_master WHERE name = '\(HistoryTables.transactions)'")
        #expect(definition.count == 1)
        #expect(definition.allSatisfy { !$0.contains("AUTOINCREMENT") })
        #expect(try store.texts("SELECT name FROM sqlite_master WHERE name = 'sqlite_sequence'").isEmpty)
    }

    @Test func aStoreWithAnAutoincrementedTableKeepsItsSequence() throws {
        let store = TestStore(.sqlite)
        try store.seed(HistoryTrip.self, HistoryPlanner.self) {
            $0.insert(HistoryTrip(name: "a", destination: "x"))
        }
        // Make the transactions table as layout version 3 wrote it, its newest transactions through 100 deleted.
        let transactions = HistoryTables.transactions
        try store.execute(HistoryFixtures.sqliteHistoryLayout(3))
        try store.execute(
            """
            CREATE TABLE old_transactions (id INTEGER PRIMARY KEY AUTOINCREMENT, timestamp REAL NOT NULL, \
            author TEXT, bundle TEXT NOT NULL, process TEXT NOT NULL);
            INSERT INTO old_transactions SELECT id, timestamp, author, bundle, process FROM \(transactions);
            DROP TABLE \(transactions);
            ALTER TABLE old_transactions RENAME TO \(transactions);
            CREATE INDEX \(HistoryTables.timestampIndex) ON \(transactions) (timestamp);
            UPDATE sqlite_sequence SET seq = 100 WHERE name = '\(transactions)';
            """)
        #expect(
            try store.texts("SELECT sql FROM sqlite_master WHERE name = '\(transactions)'").first?.contains(
                "AUTOINCREMENT") == true)

        let context = try store.reopen(HistoryTrip.self, HistoryPlanner.self)
        let definition = try store.texts("SELECT sql FROM sqlite_master WHERE name = '\(transactions)'")
        #expect(definition.count == 1)
        #expect(definition.allSatisfy { !$0.contains("AUTOINCREMENT") })
        #expect(
            try store.texts(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(transactions)' "
                    + "AND name = '\(HistoryTables.timestampIndex)'"
            ).count == 1)
        #expect(try HistoryFixtures.history(context).count == 1)
        #expect(try saveTrip("b", in: context) == 101)
        #expect(try HistoryFixtures.history(context).count == 2)
        try context.deleteHistory(Descriptor())
        #expect(try saveTrip("c", in: context) == 102)
    }
}
