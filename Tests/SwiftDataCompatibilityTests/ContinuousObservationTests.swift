import Foundation
import Observation
import SwiftData
import Synchronization
import Testing

// Observers written as WWDC 2026's "What's new in SwiftData" writes them: a main-actor controller keeps a
// `withContinuousObservation` token and updates its own state from models and live results.
@Model final class ObservedTrip {
    var name: String
    var destination: String

    init(name: String, destination: String) {
        self.name = name
        self.destination = destination
    }
}

@Observable @MainActor final class TripNameController {
    private(set) var names: [String] = []
    private(set) var kinds: [ObservationTracking.Event.Kind] = []
    private(set) var matchedName: [Bool] = []
    private var token: ObservationTracking.Token?

    init(trip: ObservedTrip, options: ObservationTracking.Options = [.didSet]) {
        token = withContinuousObservation(options: options) { [weak self] event in
            // Main-actor state, touched without a hop: the closure runs on the actor it was written on.
            self?.names.append(trip.name)
            self?.kinds.append(event.kind)
            self?.matchedName.append(event.matches(\ObservedTrip.name))
        }
    }

    func stopObserving() {
        token.take()?.cancel()
    }

    func releaseToken() {
        token = nil
    }
}

@Observable @MainActor final class TripCountController {
    private let resultsObserver: ResultsObserver<ObservedTrip, Never>
    private(set) var destinations: [String] = []
    private var token: ObservationTracking.Token?

    init(modelContext: ModelContext) throws {
        let observer = try ResultsObserver<ObservedTrip, Never>(
            fetchDescriptor: FetchDescriptor(sortBy: [SortDescriptor(\.destination)]), modelContext: modelContext)
        resultsObserver = observer
        token = withContinuousObservation(options: [.didSet]) { [weak self] _ in
            self?.destinations = observer.results.map(\ObservedTrip.destination)
        }
    }
}

@MainActor @Suite struct ContinuousObservationTests {
    /// Waits, yielding to the main actor, until `condition` holds or two seconds have passed.
    private func eventually(_ condition: () -> Bool) async throws {
        for _ in 0..<200 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
    }

    /// Gives pending observation calls on the main actor time to run.
    private func settle() async throws {
        for _ in 0..<10 { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test(arguments: StoreKind.all) func applyRunsAgainAfterEachChangeUntilCancelled(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, ObservedTrip.self)
        let context = container.mainContext
        let trip = ObservedTrip(name: "Lisbon", destination: "Portugal")
        context.insert(trip)
        try context.save()

        let controller = TripNameController(trip: trip)
        try await eventually { controller.names == ["Lisbon"] }
        #expect(controller.kinds == [.initial])
        #expect(controller.matchedName == [false])

        trip.name = "Porto"
        try context.save()
        try await eventually { controller.names.count == 2 }
        #expect(controller.names == ["Lisbon", "Porto"])
        #expect(controller.kinds == [.initial, .didSet])
        #expect(controller.matchedName == [false, true])

        // A property the closure never read is not tracked.
        trip.destination = "Spain"
        try await settle()
        #expect(controller.names.count == 2)

        // A change saved by another context reaches the main context's model, and the closure sees it.
        let other = ModelContext(container)
        let same = try #require(try other.fetch(FetchDescriptor<ObservedTrip>()).first)
        same.name = "Faro"
        try other.save()
        try await eventually { controller.names.count == 3 }
        #expect(controller.names == ["Lisbon", "Porto", "Faro"])
        trip.name = "Evora"
        try await eventually { controller.names.count == 4 }
        #expect(controller.names == ["Lisbon", "Porto", "Faro", "Evora"])

        controller.stopObserving()
        trip.name = "Braga"
        try context.save()
        try await settle()
        #expect(controller.names == ["Lisbon", "Porto", "Faro", "Evora"])
    }

    @Test func changesMadeTogetherArriveInOneCall() async throws {
        let trip = ObservedTrip(name: "Lisbon", destination: "Portugal")
        let controller = TripNameController(trip: trip, options: [.willSet, .didSet])
        try await eventually { controller.names == ["Lisbon"] }

        trip.name = "Porto"
        trip.name = "Faro"
        try await eventually { controller.names.count == 2 }
        try await settle()
        // One call, after the code that changed the model, seeing the last value: a `.didSet` event.
        #expect(controller.names == ["Lisbon", "Faro"])
        #expect(controller.kinds == [.initial, .didSet])

        // With only `.willSet`, the event says so, and the call still comes after the change is stored.
        let early = TripNameController(trip: trip, options: [.willSet])
        try await eventually { early.names == ["Faro"] }
        trip.name = "Braga"
        try await eventually { early.names.count == 2 }
        #expect(early.names == ["Faro", "Braga"])
        #expect(early.kinds == [.initial, .willSet])
    }

    @Test func releasingTheTokenStopsTheObservation() async throws {
        let trip = ObservedTrip(name: "Lisbon", destination: "Portugal")
        let controller = TripNameController(trip: trip)
        try await eventually { controller.names == ["Lisbon"] }
        controller.releaseToken()
        trip.name = "Porto"
        try await settle()
        #expect(controller.names == ["Lisbon"])
    }

    @Test func theEventCancelsTheObservation() async throws {
        let trip = ObservedTrip(name: "Lisbon", destination: "Portugal")
        let calls = Calls()
        let token = withContinuousObservation(options: [.didSet]) { event in
            calls.names.append(trip.name)
            if trip.name == "Porto" { event.cancel() }
        }
        try await eventually { calls.names == ["Lisbon"] }
        trip.name = "Porto"
        try await eventually { calls.names.count == 2 }
        trip.name = "Faro"
        try await settle()
        #expect(calls.names == ["Lisbon", "Porto"])
        token.cancel()
    }

    @Test func aNonisolatedObservationTracksToo() async throws {
        let trip = ObservedTrip(name: "Lisbon", destination: "Portugal")
        let names = Mutex<[String]>([])
        let token = observeNonisolated(trip) { name in names.withLock { $0.append(name) } }
        try await eventually { names.withLock { $0 } == ["Lisbon"] }
        trip.name = "Porto"
        // The closure may run between the change's two edges, on another thread; it runs again after the second.
        try await eventually { names.withLock { $0 }.last == "Porto" }
        #expect(names.withLock { $0 }.last == "Porto")
        token.cancel()
    }

    @Test(arguments: StoreKind.all) func liveResultsDriveTheObservation(_ kind: StoreKind) async throws {
        let container = try freshContainer(kind, ObservedTrip.self)
        let context = container.mainContext
        context.insert(ObservedTrip(name: "Lisbon", destination: "Portugal"))
        try context.save()

        let controller = try TripCountController(modelContext: context)
        try await eventually { controller.destinations == ["Portugal"] }

        let other = ModelContext(container)
        other.insert(ObservedTrip(name: "Oslo", destination: "Norway"))
        try other.save()
        try await eventually { controller.destinations.count == 2 }
        #expect(controller.destinations == ["Norway", "Portugal"])
    }

    @Test func optionsAreASet() {
        var options: ObservationTracking.Options = [.willSet]
        #expect(options.contains(.willSet))
        #expect(!options.contains(.didSet))
        #expect(options.insert(.didSet).inserted)
        #expect(!options.insert(.didSet).inserted)
        #expect(options == [.didSet, .willSet])
        #expect(options.remove(.deinit) == nil)
        #expect(options.remove(.willSet) == .willSet)
        #expect(options == .didSet)
        #expect(ObservationTracking.Options().isEmpty)
        #expect(options.union(.deinit).intersection([.deinit, .willSet]) == .deinit)
    }
}

/// Observes `trip.name` from nonisolated code: the closure runs on no actor.
private nonisolated func observeNonisolated(
    _ trip: ObservedTrip, _ record: @escaping @Sendable (String) -> Void
) -> ObservationTracking.Token {
    withContinuousObservation(options: [.willSet, .didSet]) { _ in record(trip.name) }
}

/// Main-actor state a test's observation closure appends to.
@MainActor private final class Calls {
    var names: [String] = []
}
