import Foundation
import Observation

/// A live aggregate: the groups an ``AggregateDescriptor`` describes, computed again by the store whenever a save
/// may change them, and published only when they did (the aggregate member of the `ResultsObserver` family).
///
/// ```swift
/// @MainActor func showSpending(_ container: ModelContainer) async throws {
///     let observer = try AggregateObserver(
///         aggregateDescriptor: AggregateDescriptor(groupBy: \Expense.category, aggregates: .sum(\.cents)),
///         modelContext: container.mainContext)
///     print(observer.results.map { ($0.key, $0.value) })
///     for await groups in observer.changes {           // after every save that changes the totals
///         print(groups.map { ($0.key, $0.value) })
///     }
/// }
/// ```
///
/// It follows the saves of every context of its container, and the commits of other containers, processes and
/// machines on the same store, as `ResultsObserver` does. It runs the aggregate again only after a save that
/// touched a model it reads: one of the aggregated model (or its subclasses), or one reached through a to-one
/// path of its predicate, group keys or aggregates. The totals are those of saved models, as
/// `ModelContext.fetch(_:)` computes them.
///
/// It belongs to the actor it is created on (the `isolation:` argument, by default the caller's) and refreshes
/// there. Nobody else keeps an observer alive: once dropped, it stops observing and finishes its `changes`
/// streams.
@Observable
public final class AggregateObserver<T: PersistentModel, Key, Value> {
    // As in `ResultsObserver`, the observed properties are computed over storage that Observation ignores and
    // tell the registrar themselves, with key paths made once per observer.

    /// The current groups, in the descriptor's order.
    public internal(set) var results: [AggregateResult<Key, Value>] {
        get {
            access(keyPath: observedKeyPaths.results)
            return resultsStorage
        }
        set { withMutation(keyPath: observedKeyPaths.results) { resultsStorage = newValue } }
    }

    /// The error of the last refresh, if it failed (the results stay as they were); `nil` after a successful one.
    public internal(set) var fetchError: StrataError? {
        get {
            access(keyPath: observedKeyPaths.fetchError)
            return fetchErrorStorage
        }
        set { withMutation(keyPath: observedKeyPaths.fetchError) { fetchErrorStorage = newValue } }
    }

    /// What the observer computes. Setting it computes the groups again before returning and publishes them.
    public var aggregateDescriptor: AggregateDescriptor<T, Key, Value> {
        get {
            access(keyPath: observedKeyPaths.aggregateDescriptor)
            return descriptorStorage
        }
        set {
            withMutation(keyPath: observedKeyPaths.aggregateDescriptor) { descriptorStorage = newValue }
            updateWatchedEntities()
            publishedRows = nil
            refresh(after: nil)
        }
    }

    /// The predicate of `aggregateDescriptor`; setting it computes the groups again before returning.
    public var filterBy: Predicate<T>? {
        get { aggregateDescriptor.predicate }
        set { aggregateDescriptor.predicate = newValue }
    }

    /// Called on the observer's actor after every refresh that changed the groups, with the new groups.
    @ObservationIgnored public var onChange: (([AggregateResult<Key, Value>]) -> Void)?

    /// The context the observer computes the groups in.
    public let modelContext: ModelContext

    @ObservationIgnored var resultsStorage: [AggregateResult<Key, Value>] = []
    @ObservationIgnored var fetchErrorStorage: StrataError?
    @ObservationIgnored var descriptorStorage: AggregateDescriptor<T, Key, Value>
    private let observedKeyPaths = ObservedKeyPaths()

    /// The key paths of the observed properties, made once.
    private struct ObservedKeyPaths {
        let results: KeyPath<AggregateObserver, [AggregateResult<Key, Value>]> = \.results
        let fetchError: KeyPath<AggregateObserver, StrataError?> = \.fetchError
        let aggregateDescriptor: KeyPath<AggregateObserver, AggregateDescriptor<T, Key, Value>> =
            \.aggregateDescriptor
    }

    /// Keeps the container (and so the main context, which it owns) alive as long as the observer.
    let container: ModelContainer
    let entity: Schema.Entity
    /// The actor the observer belongs to, where its refreshes run.
    let actor: any Actor
    @ObservationIgnored var streams = PublishedStreams<[AggregateResult<Key, Value>]>()
    @ObservationIgnored var subscription: UInt64?
    /// The store's rows behind the published groups (`nil` before the first publish, or after the descriptor
    /// changed): a refresh that reads the same rows publishes nothing.
    @ObservationIgnored var publishedRows: [[StoredValue]]?
    /// How many times the observer ran its aggregate (for tests that a save it doesn't read leaves it alone).
    @ObservationIgnored package internal(set) var fetchCount = 0

    /// Observes the groups a descriptor describes, in a context used on the observer's actor: `isolation`, the
    /// caller's by default, where the observer is read and refreshed.
    ///
    /// - Throws: `SwiftDataError` or `StrataError` when the first computation fails (a model not in the
    ///   container's schema, a key path that can't be grouped or totalled, a predicate the store can't run, a
    ///   store failure), as `ModelContext.fetch(_:)` throws; later failures are published in `fetchError`.
    public init(
        aggregateDescriptor: AggregateDescriptor<T, Key, Value>, modelContext: ModelContext,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        actor = isolation ?? MainActor.shared
        self.modelContext = modelContext
        container = modelContext.container
        descriptorStorage = aggregateDescriptor
        guard let entity = container.schema.entity(for: T.self) else {
            throw StrataError.unknownEntity(String(describing: T.self)).thrownValue
        }
        self.entity = entity
        // Subscribe first, so nothing saved between the first computation and the subscription goes unseen.
        subscription = container.liveChanges.subscribe(
            self, entityNames: watchedEntityNames, store: container.store, actor: actor)
        refresh(after: nil)
        if let fetchErrorStorage { throw fetchErrorStorage.thrownValue }
    }

    /// Observes the groups a descriptor describes, in a new context of its own on `modelContainer`.
    ///
    /// - Throws: `SwiftDataError` or `StrataError` when the first computation fails, as
    ///   ``init(aggregateDescriptor:modelContext:isolation:)`` does; later failures are published in `fetchError`.
    public convenience init(
        aggregateDescriptor: AggregateDescriptor<T, Key, Value>, modelContainer: ModelContainer,
        isolation: isolated (any Actor)? = #isolation
    ) throws {
        try self.init(
            aggregateDescriptor: aggregateDescriptor, modelContext: ModelContext(modelContainer),
            isolation: isolation)
    }

    deinit {
        streams.finish()
        if let subscription { container.liveChanges.unsubscribe(subscription) }
    }
}
