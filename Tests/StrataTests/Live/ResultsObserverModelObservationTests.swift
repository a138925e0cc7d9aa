import Foundation
import Strata
import Testing
@testable import StrataTestFixtures

@MainActor
@Suite("ResultsObserver: model observation")
struct ResultsObserverModelObservationTests {
    @Test(arguments: StoreKind.all) func reloadingAModelChangedElsewhereNotifiesItsPropertyObservers(
        _ kind: StoreKind
    ) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        let tasks = try LiveFixtures.insert([("a", 1)], into: writer)
        let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
        let shown = try #require(observer.results.first)
        let notified = NotificationFlag()
        withObservationTracking {
            _ = shown.title
        } onChange: {
            notified.set()
        }
        tasks[0].title = "renamed"
        try writer.save()
        #expect(await LiveFixtures.eventually { notified.isSet })
        #expect(shown.title == "renamed")
    }

    @Test(arguments: StoreKind.all) func observersOfResultsAreNotifiedByASaveThatChangesThem(
        _ kind: StoreKind
    ) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        _ = try LiveFixtures.insert([("a", 1)], into: writer)
        let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
        let notified = NotificationFlag()
        withObservationTracking {
            _ = observer.results
        } onChange: {
            notified.set()
        }
        _ = try LiveFixtures.insert([("b", 2)], into: writer)
        #expect(await LiveFixtures.eventually { notified.isSet })
        #expect(observer.results.count == 2)
    }

    @Test(arguments: StoreKind.all) func aSaveThatChangesNothingShownDoesNotNotifyObserversOfResults(
        _ kind: StoreKind
    ) async throws {
        let container = try LiveFixtures.memoryContainer(kind)
        let writer = ModelContext(container)
        _ = try LiveFixtures.insert([("a", 1)], into: writer)
        let observer = try ResultsObserver<LiveTask, Never>(
            filterBy: #Predicate { $0.priority > 5 }, sortBy: [SortDescriptor(\.title)], modelContainer: container)
        let notified = NotificationFlag()
        withObservationTracking {
            _ = observer.results; _ = observer.fetchError
        } onChange: {
            notified.set()
        }
        let before = observer.fetchCount
        _ = try LiveFixtures.insert([("b", 2)], into: writer)
        #expect(await LiveFixtures.eventually { observer.fetchCount > before })
        #expect(!notified.isSet)
    }

    @Test(arguments: StoreKind.all) func observersOfTheDescriptorAreNotifiedWhenTheFilterChanges(
        _ kind: StoreKind
    ) throws {
        let container = try LiveFixtures.memoryContainer(kind)
        _ = try LiveFixtures.insert([("a", 1), ("b", 9)], into: ModelContext(container))
        let observer = try ResultsObserver<LiveTask, Never>(modelContainer: container)
        let descriptorChanged = NotificationFlag()
        let resultsChanged = NotificationFlag()
        withObservationTracking {
            _ = observer.filterBy
        } onChange: {
            descriptorChanged.set()
        }
        withObservationTracking {
            _ = observer.results
        } onChange: {
            resultsChanged.set()
        }
        observer.filterBy = #Predicate { $0.priority > 5 }
        #expect(descriptorChanged.isSet)
        #expect(resultsChanged.isSet)
        #expect(observer.results.map(\.title) == ["b"])
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
