import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@MainActor
@Suite("ResultsObserver: lifetime")
struct ResultsObserverLifetimeTests {
    private typealias Fixtures = LiveFixtures

    @Test(arguments: StoreKind.all) func anObserverNobodyKeepsIsFreedAndUnsubscribed(_ kind: StoreKind) async throws {
        let container = try Fixtures.memoryContainer(kind)
        weak var weakObserver: ResultsObserver<LiveTask, Never>?
        do {
            let observer = try ResultsObserver<LiveTask, Never>(modelContext: container.mainContext)
            // A user's closure that captures the observer is their cycle; clearing it must leave nothing behind.
            observer.onChange = { _ in _ = observer.results }
            observer.onChange = nil
            weakObserver = observer
            #expect(container.liveChanges.subscriberCount == 1)
        }
        #expect(await Fixtures.eventually { weakObserver == nil })
        #expect(container.liveChanges.subscriberCount == 0)
        try Fixtures.insert([("a", 1)], into: ModelContext(container))
        await Fixtures.settle()
    }

    @Test(arguments: StoreKind.all) func observerAndItsOwnContextDontKeepTheContainerAlive(
        _ kind: StoreKind
    ) async throws {
        weak var weakContainer: ModelContainer?
        weak var weakObserver: ResultsObserver<LiveTask, Never>?
        do {
            let store = TestStore(kind)
            let container = try store.container(LiveTask.self, LiveNote.self)
            let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
            weakContainer = container
            weakObserver = observer
        }
        #expect(await Fixtures.eventually { weakObserver == nil })
        // The store monitor lets go within one poll interval.
        #expect(await Fixtures.eventually { weakContainer == nil })
    }

    @Test(arguments: StoreKind.all) func changesSequenceEndsWhenTheObserverIsFreed(_ kind: StoreKind) async throws {
        let container = try Fixtures.memoryContainer(kind)
        var observer: ResultsObserver<LiveTask, Never>? = try ResultsObserver(modelContainer: container)
        let stream = try #require(observer?.changes)
        let reader = Task { @MainActor in
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        try Fixtures.insert([("a", 1)], into: ModelContext(container))
        #expect(await Fixtures.eventually { observer?.results.count == 1 })
        observer = nil
        #expect(await reader.value == 1)
    }
}
