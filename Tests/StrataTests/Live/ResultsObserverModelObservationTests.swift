import Foundation
import Strata
import Testing

@MainActor
@Suite("ResultsObserver: model observation")
struct ResultsObserverModelObservationTests {
    @Test func reloadingAModelChangedElsewhereNotifiesItsPropertyObservers() async throws {
        let container = try LiveFixtures.memoryContainer()
        let writer = ModelContext(container)
        let tasks = try LiveFixtures.insert([("a", 1)], into: writer)
        let observer = ResultsObserver<LiveTask, Never>(modelContainer: container)
        let shown = try #require(observer.results.first)
        let notified = NotificationFlag()
        withObservationTracking { _ = shown.title } onChange: { notified.set() }
        tasks[0].title = "renamed"
        try writer.save()
        #expect(await LiveFixtures.eventually { notified.isSet })
        #expect(shown.title == "renamed")
    }
}

/// A flag an observation callback can set from any thread.
final class NotificationFlag: @unchecked Sendable {
    // `@unchecked`: guarded by `lock`.
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
