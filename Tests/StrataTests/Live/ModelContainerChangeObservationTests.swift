import Foundation
import Strata
import StrataTestSupport
import Testing
@testable import StrataTestFixtures

/// `ModelContainer.observeChanges(_:)`: the public hook through which an app (and StrataState) hears that the
/// container's stored models changed.
@MainActor
@Suite("ModelContainer: observing changes")
struct ModelContainerChangeObservationTests {
    private typealias Fixtures = LiveFixtures

    /// Collects what an observation reports.
    @MainActor final class ChangeRecorder {
        var changes: [ModelContainer.StoreChange] = []
    }

    @Test(arguments: StoreKind.all) func aSaveOfTheContainersOwnContextIsReportedWithItsModels(
        _ kind: StoreKind
    ) async throws {
        let container = try Fixtures.memoryContainer(kind)
        let recorder = ChangeRecorder()
        let observation = container.observeChanges { recorder.changes.append($0) }
        let tasks = try Fixtures.insert([("a", 1)], into: ModelContext(container))
        #expect(await Fixtures.eventually { recorder.changes.count == 1 })
        let change = try #require(recorder.changes.first)
        #expect(change.insertedIdentifiers == [tasks[0].persistentModelID])
        #expect(change.updatedIdentifiers.isEmpty && change.deletedIdentifiers.isEmpty)
        #expect(change.entityNames == ["LiveTask"])
        #expect(!change.includesExternalChanges)
        observation.cancel()
    }

    @Test(arguments: StoreKind.all) func aSaveByAnotherContainerOnTheSameStoreIsAnExternalChange(
        _ kind: StoreKind
    ) async throws {
        let store = TestStore(kind)
        let container = try store.container(LiveTask.self, LiveNote.self)
        let recorder = ChangeRecorder()
        let observation = container.observeChanges { recorder.changes.append($0) }
        let writer = ModelContext(try store.container(LiveTask.self, LiveNote.self))
        try Fixtures.insert([("elsewhere", 1)], into: writer)
        #expect(await Fixtures.eventually { recorder.changes.contains(where: \.includesExternalChanges) })
        #expect(recorder.changes.allSatisfy { $0.entityNames?.contains("LiveTask") ?? true })
        withExtendedLifetime(observation) {}
    }

    @Test func notifyChangesIsAnExternalChangeOfTheNamedEntities() async throws {
        let container = try Fixtures.memoryContainer()
        let recorder = ChangeRecorder()
        let observation = container.observeChanges { recorder.changes.append($0) }
        container.notifyChanges(to: LiveNote.self)
        #expect(await Fixtures.eventually { recorder.changes.count == 1 })
        #expect(recorder.changes.first?.entityNames == ["LiveNote"])
        #expect(recorder.changes.first?.includesExternalChanges == true)
        #expect(recorder.changes.first?.insertedIdentifiers.isEmpty == true)
        withExtendedLifetime(observation) {}
    }

    @Test(arguments: StoreKind.all) func aCancelledOrReleasedObservationIsNotCalledAgain(_ kind: StoreKind) async throws
    {
        let container = try Fixtures.memoryContainer(kind)
        let cancelled = ChangeRecorder()
        let released = ChangeRecorder()
        let kept = ChangeRecorder()
        let observation = container.observeChanges { cancelled.changes.append($0) }
        var releasedObservation: ModelContainer.ChangeObservation? = container.observeChanges {
            released.changes.append($0)
        }
        let keptObservation = container.observeChanges { kept.changes.append($0) }
        observation.cancel()
        releasedObservation = nil
        try Fixtures.insert([("a", 1)], into: ModelContext(container))
        #expect(await Fixtures.eventually { kept.changes.count == 1 })
        await Fixtures.settle()
        #expect(cancelled.changes.isEmpty)
        #expect(released.changes.isEmpty)
        #expect(releasedObservation == nil)
        withExtendedLifetime(keptObservation) {}
    }
}
