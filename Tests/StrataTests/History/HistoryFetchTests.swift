import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("Persistent history: fetching and deleting")
struct HistoryFetchTests {
    private typealias Fixtures = HistoryFixtures

    /// Saves one trip per name, each in its own transaction, with the given author.
    private func save(_ names: [String], author: String? = nil, in context: ModelContext) throws {
        context.author = author
        for name in names {
            context.insert(HistoryTrip(name: name, destination: "x"))
            try context.save()
        }
    }

    private func insertedNames(_ transactions: [DefaultHistoryTransaction], _ context: ModelContext) -> [String] {
        transactions.flatMap(\.changes).compactMap { change in
            guard case .insert = change else { return nil }
            return (context.model(for: change.changedPersistentIdentifier) as? HistoryTrip)?.name
        }
    }

    @Test(arguments: StoreKind.all) func tokenAuthorAndTimestampPredicatesRunInTheStore(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        try save(["a", "b"], in: context)
        let all = try Fixtures.history(context)
        let token = try #require(all.last?.token)
        try save(["c"], author: "widget", in: context)
        try save(["d"], author: "app", in: context)

        #expect(insertedNames(try Fixtures.history(after: token, context), context) == ["c", "d"])
        let byWidget = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == "widget" })
        #expect(insertedNames(try context.fetchHistory(byWidget), context) == ["c"])
        let notWidget = HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { $0.token > token && $0.author != "widget" })
        #expect(insertedNames(try context.fetchHistory(notWidget), context) == ["d"])
        let noAuthor = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.author == nil })
        #expect(insertedNames(try context.fetchHistory(noAuthor), context) == ["a", "b"])
        let since = try #require(all.last?.timestamp)
        let recent = HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.timestamp > since })
        #expect(try context.fetchHistory(recent).allSatisfy { $0.timestamp > since })
        let first = try #require(all.first?.transactionIdentifier)
        let identified = HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { $0.transactionIdentifier == first })
        #expect(insertedNames(try context.fetchHistory(identified), context) == ["a"])
        // Every one of these is translated completely: nothing is left to evaluate in memory.
        for descriptor in [byWidget, notWidget, noAuthor, recent, identified] {
            #expect(
                try HistoryFetchPlan(descriptor, storeIdentifier: context.store.identifier).predicateInMemory == nil)
        }
    }

    @Test(arguments: StoreKind.all) func otherPredicatesAreEvaluatedInMemoryOverTheStoresSelection(
        _ kind: StoreKind
    ) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        try save(["a"], author: "widget-1", in: context)
        try save(["b"], author: "app", in: context)
        try save(["c"], author: "widget-2", in: context)
        let widgets = HistoryDescriptor<DefaultHistoryTransaction>(
            predicate: #Predicate { ($0.author ?? "").starts(with: "widget") && $0.transactionIdentifier > 1 })
        let plan = try HistoryFetchPlan(widgets, storeIdentifier: context.store.identifier)
        #expect(plan.predicateInMemory != nil)
        #expect(plan.request.conditions == [.transaction(.greater, 1)])
        #expect(insertedNames(try context.fetchHistory(widgets), context) == ["c"])
    }

    @Test(arguments: StoreKind.all) func sortAndLimit(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        try save(["a", "b", "c", "d"], in: context)
        var newest = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [SortDescriptor(\.token, order: .reverse)])
        newest.fetchLimit = 2
        #expect(try HistoryFetchPlan(newest, storeIdentifier: context.store.identifier).request.limit == 2)
        #expect(insertedNames(try context.fetchHistory(newest), context) == ["d", "c"])
        var byAuthor = HistoryDescriptor<DefaultHistoryTransaction>(sortBy: [
            SortDescriptor(\.processIdentifier), SortDescriptor(\.transactionIdentifier),
        ])
        byAuthor.fetchLimit = 3
        #expect(insertedNames(try context.fetchHistory(byAuthor), context) == ["a", "b", "c"])
    }

    @Test(arguments: StoreKind.all) func deletedHistoryMakesOlderTokensExpire(_ kind: StoreKind) throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        try save(["a", "b"], in: context)
        let early = try #require(try Fixtures.history(context).first?.token)
        try save(["c"], in: context)
        let processed = try #require(try Fixtures.history(context).last?.token)
        try save(["d"], in: context)

        try context.deleteHistory(
            HistoryDescriptor<DefaultHistoryTransaction>(predicate: #Predicate { $0.token <= processed }))
        #expect(insertedNames(try Fixtures.history(context), context) == ["d"])
        // Nothing after `processed` was deleted: its reader misses nothing.
        #expect(insertedNames(try Fixtures.history(after: processed, context), context) == ["d"])
        #expect {
            try Fixtures.history(after: early, context)
        } throws: { error in
            guard case .historyTokenExpired(_, let transaction, _)? = (error as? SwiftDataError)?.underlyingError else {
                return false
            }
            return transaction == early.transactionIdentifier
        }
    }

    @Test(arguments: StoreKind.all) func tokenOfAnotherStoreIsRefused(_ kind: StoreKind) throws {
        let context = ModelContext(try Fixtures.container(kind))
        try save(["a"], in: context)
        let foreign = DefaultHistoryToken(storeIdentifier: "another-store", transactionIdentifier: 1)
        #expect(throws: SwiftDataError.self) { try Fixtures.history(after: foreign, context) }
    }

    @Test(arguments: StoreKind.all) func tokensAreCodableAndComparable(_ kind: StoreKind) throws {
        let context = ModelContext(try Fixtures.container(kind))
        try save(["a", "b"], in: context)
        let tokens = try Fixtures.history(context).map(\.token)
        let data = try JSONEncoder().encode(tokens[0])
        let decoded = try JSONDecoder().decode(DefaultHistoryToken.self, from: data)
        #expect(decoded == tokens[0])
        #expect(decoded < tokens[1])
        #expect(decoded.tokenValue == [context.store.identifier: Int(tokens[0].transactionIdentifier)])
        #expect(decoded.storeIdentifier == context.store.identifier)
    }

    @Test(arguments: StoreKind.all) func identifiersAreNeverReusedAfterTheNewestHistoryIsDeleted(
        _ kind: StoreKind
    ) throws {
        let context = ModelContext(try Fixtures.container(kind))
        try save(["a", "b"], in: context)
        let newest = try #require(try Fixtures.history(context).last?.transactionIdentifier)
        try context.deleteHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(try Fixtures.history(context).isEmpty)
        try save(["c"], in: context)
        #expect(try Fixtures.history(context).map(\.transactionIdentifier) == [newest + 1])
    }
}
