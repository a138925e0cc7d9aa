import Foundation
@testable import Strata
import Testing

@MainActor
@Suite("ResultsObserver: lifetime")
struct ResultsObserverLifetimeTests {
    private typealias Fixtures = LiveFixtures

    @Test func anObserverNobodyKeepsIsFreedAndUnsubscribed() async throws {
        let container = try Fixtures.memoryContainer()
        weak var weakObserver: ResultsObserver<LiveTask, Never>?
        do {
            let observer = try ResultsObserver<LiveTask, Never>(modelContext: container.mainContext)
            observer.onChange = { _ in _ = observer.results }   // a user's closure that captures the observer is their cycle;
            observer.onChange = nil                              // clearing it must leave nothing behind
            weakObserver = observer
            #expect(container.liveChanges.subscriberCount == 1)
        }
        #expect(await Fixtures.eventually { weakObserver == nil })
        #expect(container.liveChanges.subscriberCount == 0)
        try Fixtures.insert([("a", 1)], into: ModelContext(container))
        await Fixtures.settle()
    }

    @Test func observerAndItsOwnContextDontKeepTheContainerAlive() async throws {
        weak var weakContainer: ModelContainer?
        weak var weakObserver: ResultsObserver<LiveTask, Never>?
        do {
            let (container, url) = try Fixtures.fileContainer()
            defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
            let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
            weakContainer = container
            weakObserver = observer
        }
        #expect(await Fixtures.eventually { weakObserver == nil })
        // The store monitor lets go within one poll interval.
        #expect(await Fixtures.eventually { weakContainer == nil })
    }

    @Test func changesSequenceEndsWhenTheObserverIsFreed() async throws {
        let container = try Fixtures.memoryContainer()
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
