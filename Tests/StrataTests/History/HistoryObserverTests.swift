import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@MainActor
@Suite("Persistent history: HistoryObserver")
struct HistoryObserverTests {
    private typealias Fixtures = HistoryFixtures

    @Test(arguments: StoreKind.all) func seesSavesOfThisProcessAndOfAnotherContainer(_ kind: StoreKind) async throws {
        let store = TestStore(kind)
        let container = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let context = ModelContext(container)
        context.insert(HistoryTrip(name: "before", destination: "x"))
        try context.save()
        let observer = try HistoryObserver(modelContainer: container)
        var stream = observer.transactions.makeAsyncIterator()
        #expect(observer.eventCounter == 0)

        context.insert(HistoryTrip(name: "here", destination: "x"))
        try context.save()
        #expect(await LiveFixtures.eventually { observer.eventCounter == 1 })
        #expect(await stream.next()?.changes.count == 1)

        let other = try store.container(HistoryTrip.self, HistoryPlanner.self)
        let widget = ModelContext(other)
        widget.author = "widget"
        widget.insert(HistoryTrip(name: "there", destination: "y"))
        try widget.save()
        #expect(await LiveFixtures.eventually { observer.eventCounter == 2 })
        let transaction = await stream.next()
        #expect(transaction?.author == "widget")
        #expect(observer.historyTokens[context.store.identifier] as? DefaultHistoryToken == transaction?.token)
    }

    @Test(arguments: StoreKind.all) func reportsOnlyObservedModelsAndAuthors(_ kind: StoreKind) async throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        let observer = try HistoryObserver(
            observedModels: [HistoryPlanner.self], authors: ["sync"], modelContainer: container)
        context.author = "sync"
        context.insert(HistoryTrip(name: "ignored", destination: "x"))
        try context.save()
        context.author = nil
        context.insert(HistoryPlanner(name: "ignored too"))
        try context.save()
        await LiveFixtures.settle()
        #expect(observer.eventCounter == 0)
        context.author = "sync"
        context.insert(HistoryPlanner(name: "seen"))
        try context.save()
        #expect(await LiveFixtures.eventually { observer.eventCounter == 1 })
    }

    @Test(arguments: StoreKind.all) func startsAfterAGivenToken(_ kind: StoreKind) async throws {
        let container = try Fixtures.container(kind)
        let context = ModelContext(container)
        for name in ["a", "b"] {
            context.insert(HistoryTrip(name: name, destination: "x"))
            try context.save()
        }
        let first = try #require(try Fixtures.history(context).first?.token)
        let observer = try HistoryObserver(historyTokens: [first.storeIdentifier: first], modelContainer: container)
        var stream = observer.transactions.makeAsyncIterator()
        context.insert(HistoryTrip(name: "c", destination: "x"))
        try context.save()
        // The first notice reads everything after the given token: b's transaction, then c's.
        #expect(await stream.next()?.transactionIdentifier == first.transactionIdentifier + 1)
        #expect(await stream.next()?.transactionIdentifier == first.transactionIdentifier + 2)
    }
}
