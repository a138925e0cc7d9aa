import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Holds an observer of `LiveTask`s on its own actor.
private actor TaskWatcher {
    private var observer: ResultsObserver<LiveTask, Never>?
    private(set) var deliveredOnActor = 0

    func watch(_ container: ModelContainer) throws {
        let observer = try ResultsObserver(sortBy: [SortDescriptor(\LiveTask.title)], modelContainer: container)
        observer.onChange = { [unowned self] _ in
            self.assertIsolated()
            self.deliveredOnActor += 1
        }
        self.observer = observer
    }

    func stopWatching() { observer = nil }

    func titles() -> [String] { observer?.results.map(\.title) ?? [] }

    func waitUntil(_ titles: [String]) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while self.titles() != titles {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return true
    }
}

@Suite("ResultsObserver on actors other than the main actor")
struct ResultsObserverActorTests {
    @Test(
        "Saves, a burst coalesced or not, reach an observer on its own actor, which sees every one",
        arguments: StoreKind.all)
    func savesReachAnObserverOnItsActor(_ kind: StoreKind) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let watcher = TaskWatcher()
        try await watcher.watch(container)
        let writer = ModelContext(container)
        _ = try LiveFixtures.insert([("b", 1)], into: writer)
        #expect(await watcher.waitUntil(["b"]))
        _ = try LiveFixtures.insert([("a", 1)], into: writer)
        _ = try LiveFixtures.insert([("c", 1)], into: writer)
        #expect(await watcher.waitUntil(["a", "b", "c"]))
        #expect(await watcher.deliveredOnActor >= 2)
    }

    @Test("An observer dropped on its actor unsubscribes", arguments: StoreKind.all)
    func droppedObserverUnsubscribes(_ kind: StoreKind) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let watcher = TaskWatcher()
        try await watcher.watch(container)
        #expect(container.liveChanges.subscriberCount == 1)
        await watcher.stopWatching()
        #expect(container.liveChanges.subscriberCount == 0)
    }
}
