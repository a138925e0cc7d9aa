import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// A token expires only when a transaction after it that its reader would have returned is gone: deleting older
/// transactions, or newer ones of authors the reader leaves out, expires nothing.
@Suite("Persistent history: when a token expires")
struct HistoryTokenExpiryTests {
    private typealias Fixtures = HistoryFixtures
    private typealias Descriptor = HistoryDescriptor<DefaultHistoryTransaction>

    /// Saves one trip per name, each in its own transaction, with the given author; returns the last one's token.
    @discardableResult
    private func save(_ names: [String], author: String?, in context: ModelContext) throws -> DefaultHistoryToken {
        context.author = author
        for name in names {
            context.insert(HistoryTrip(name: name, destination: "x"))
            try context.save()
        }
        return try #require(try Fixtures.history(context).last?.token)
    }

    private func names(_ descriptor: Descriptor, _ context: ModelContext) throws -> [String] {
        try context.fetchHistory(descriptor).flatMap(\.changes).compactMap { change in
            guard case .insert = change else { return nil }
            return (context.model(for: change.changedPersistentIdentifier) as? HistoryTrip)?.name
        }
    }

    /// Expects `descriptor` to throw `historyTokenExpired`, naming the transaction it reads after (the token's, or
    /// `by` before it for a `>=` bound).
    private func expectExpired(
        _ descriptor: Descriptor, after token: DefaultHistoryToken, _ context: ModelContext, by offset: Int64 = 0
    ) {
        #expect {
            try context.fetchHistory(descriptor)
        } throws: { error in
            guard case .historyTokenExpired(_, let transaction, _)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return transaction == token.transactionIdentifier - offset
        }
    }

    /// A sync layer trims what it pulled (`author == "inbound"`) while reading its own changes since its push token:
    /// the pulled transactions after the token are gone, but the reader leaves them out.
    @Test(arguments: StoreKind.all) func deletingNewerTransactionsOfAnExcludedAuthorKeepsTheToken(
        _ kind: StoreKind
    )
        throws
    {
        let context = ModelContext(try Fixtures.container(kind))
        let pushed = try save(["a"], author: "local", in: context)
        try save(["pulled 1"], author: "inbound", in: context)
        try save(["b"], author: "local", in: context)
        try save(["pulled 2"], author: "inbound", in: context)
        try save(["c"], author: nil, in: context)

        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.author == "inbound" }))

        let notInbound = Descriptor(predicate: #Predicate { $0.token > pushed && $0.author != "inbound" })
        #expect(try names(notInbound, context) == ["b", "c"])
        let local = Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == "local" })
        #expect(try names(local, context) == ["b"])
        // Its untranslatable part runs in memory; the store's part leaves out "inbound" all the same.
        let mixed = Descriptor(
            predicate: #Predicate { $0.token > pushed && $0.author == "local" && $0.processIdentifier != "" })
        #expect(try names(mixed, context) == ["b"])
        // A reader of every author would have returned the pulled transactions.
        expectExpired(Descriptor(predicate: #Predicate { $0.token > pushed }), after: pushed, context)
        expectExpired(
            Descriptor(predicate: #Predicate { $0.token > pushed && $0.author != "local" }), after: pushed, context)
    }

    @Test(arguments: StoreKind.all) func deletingNewerTransactionsTheReaderWouldReturnExpiresTheToken(
        _ kind: StoreKind
    ) throws {
        let context = ModelContext(try Fixtures.container(kind))
        let pushed = try save(["a"], author: "local", in: context)
        try save(["b", "c"], author: "local", in: context)
        try save(["d"], author: nil, in: context)
        let b = try #require(try Fixtures.history(context).first { $0.token > pushed }?.token)

        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.token == b }))
        expectExpired(
            Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == "local" }), after: pushed, context)
        // A reader of transactions without an author misses nothing.
        #expect(
            try names(Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == nil }), context) == ["d"])

        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.author == nil }))
        expectExpired(
            Descriptor(predicate: #Predicate { $0.token > pushed && $0.author != "local" }), after: pushed, context)
        // Deleting older transactions later doesn't make the token valid again.
        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.token <= pushed }))
        expectExpired(
            Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == "local" }), after: pushed, context)
    }

    @Test(arguments: StoreKind.all) func deletingTransactionsBeforeTheTokenKeepsIt(_ kind: StoreKind) throws {
        let context = ModelContext(try Fixtures.container(kind))
        try save(["pulled 1"], author: "inbound", in: context)
        try save(["a"], author: "local", in: context)
        let pushed = try save(["pulled 2"], author: "inbound", in: context)
        try save(["b"], author: "local", in: context)
        try save(["c"], author: nil, in: context)

        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.author == "inbound" && $0.token <= pushed }))
        try context.deleteHistory(Descriptor(predicate: #Predicate { $0.author == "local" && $0.token <= pushed }))
        #expect(try names(Descriptor(predicate: #Predicate { $0.token > pushed }), context) == ["b", "c"])
        // A reader from the token on would have returned the token's own transaction, which is gone.
        expectExpired(Descriptor(predicate: #Predicate { $0.token >= pushed }), after: pushed, context, by: 1)
        // A predicate run in memory deletes by identifier, recording each author the same way.
        try context.deleteHistory(
            Descriptor(predicate: #Predicate { ($0.author ?? "").starts(with: "lo") && $0.token <= pushed }))
        #expect(try names(Descriptor(predicate: #Predicate { $0.token > pushed }), context) == ["b", "c"])

        try context.deleteHistory(
            Descriptor(predicate: #Predicate { ($0.author ?? "").starts(with: "lo") && $0.token > pushed }))
        expectExpired(Descriptor(predicate: #Predicate { $0.token > pushed }), after: pushed, context)
        #expect(
            try names(Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == nil }), context) == ["c"])
    }

    /// The marks as `strata_metadata` keeps them, and which readers each expires.
    @Test func marksExpireOnlyTheReadersTheyConcern() throws {
        let request = StoreHistoryFetch(conditions: [.transaction(.greater, 5), .author(equal: true, "local")])
        let other = HistoryDeletionMarks(newestDeleted: ["inbound": 9, nil: 8, "local": 4])
        try request.checkNotExpired(other, storeIdentifier: "S")
        #expect(throws: StrataError.self) {
            try request.checkNotExpired(HistoryDeletionMarks(newestDeleted: ["local": 6]), storeIdentifier: "S")
        }
        // An erase (and a store whose deletions were recorded before they were by author) expires every reader.
        #expect(throws: StrataError.self) {
            try request.checkNotExpired(HistoryDeletionMarks(allAuthorsThrough: 6), storeIdentifier: "S")
        }
        let marks = HistoryDeletionMarks(rows: [
            [.text("historyDeletedThrough"), .text("3")], [.text("historyDeletedThrough:in:bound"), .text("9")],
            [.text("historyDeletedThrough.noAuthor"), .text("7")], [.text("historyDeletedThrough:"), .text("2")],
        ])
        #expect(marks == HistoryDeletionMarks(allAuthorsThrough: 3, newestDeleted: ["in:bound": 9, nil: 7, "": 2]))
    }

    @Test(arguments: StoreKind.all) func eraseExpiresEveryReadersToken(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let pushed = try save(["a"], author: "local", in: context)
        try save(["b"], author: "inbound", in: context)
        try container.erase()
        expectExpired(
            Descriptor(predicate: #Predicate { $0.token > pushed && $0.author == "local" }), after: pushed, context)
    }
}
