import Foundation
import Observation

/// Live results: the models a fetch descriptor describes, fetched again by themselves whenever a save changes
/// them, with the change set a list needs to animate (SwiftData's `ResultsObserver`, Core Data's
/// `NSFetchedResultsController`).
///
/// ```swift
/// @MainActor func showBooks(_ container: ModelContainer) async {
///     let observer = ResultsObserver(filterBy: #Predicate<Book> { $0.author == "Le Guin" },
///                                    sortBy: [SortDescriptor(\.title)], modelContext: container.mainContext)
///     print(observer.results.map(\.title))
///     for await snapshot in observer.changes {        // after every save that changes them
///         print(snapshot.changes.insertedIndexes, snapshot.results.count)
///     }
/// }
/// ```
///
/// It belongs to the actor it is created on (the `isolation:` argument, by default the caller's) and refreshes
/// there after every save that can change its results, in this process or another, and when ``refresh()`` is
/// called. Nobody else keeps an observer alive: once dropped, it stops observing and finishes its `changes`
/// streams. See <doc:LiveResults> for when and how it refreshes, unsaved changes and its blind spots.
@Observable
public final class ResultsObserver<Element: PersistentModel, SectionTitle: Hashable> {
    // The observed properties are computed over storage that Observation ignores, and tell the registrar
    // themselves with key paths made once per observer: a key path literal into a generic class is rebuilt from
    // its mangled name every time it is evaluated (microseconds), and the refresh after every save reads these
    // properties — it reads the storage instead, and only a change goes through the registrar.

    /// The current results, in order.
    ///
    /// Assigning it shows other models until the next refresh, which fetches again from the descriptor (it isn't
    /// applied incrementally to models the observer didn't fetch).
    public var results: FetchResultsCollection<Element> {
        get {
            access(keyPath: observedKeyPaths.results)
            return resultsStorage
        }
        set {
            show(newValue)
            resultsMatchStore = false
            publishedKeys = Set(newValue.compactMap { $0.persistentBackingData.primaryKey })
        }
    }

    /// Replaces the published results, telling their observers.
    func show(_ results: FetchResultsCollection<Element>) {
        withMutation(keyPath: observedKeyPaths.results) { resultsStorage = results }
    }

    /// The current results grouped by section title (sections in the order they first appear in `results`);
    /// `nil` when the observer has no `sectionBy` key path. Assigning it shows other sections until the next
    /// refresh.
    public var sections: SectionedResults<Element, SectionTitle>? {
        get {
            access(keyPath: observedKeyPaths.sections)
            return sectionsStorage
        }
        set { withMutation(keyPath: observedKeyPaths.sections) { sectionsStorage = newValue } }
    }

    /// The key path whose value groups the results into `sections`; `nil` when the observer has none.
    public var sectionBy: PartialKeyPath<Element>? { sectionKeyPath }

    /// The error of the last fetch, if it failed (the results stay as they were); `nil` after a successful one.
    public internal(set) var fetchError: StrataError? {
        get {
            access(keyPath: observedKeyPaths.fetchError)
            return fetchErrorStorage
        }
        set { withMutation(keyPath: observedKeyPaths.fetchError) { fetchErrorStorage = newValue } }
    }

    /// What the observer fetches. Setting it re-fetches before returning and publishes the change set between
    /// the old and the new results.
    public var fetchDescriptor: FetchDescriptor<Element> {
        get {
            access(keyPath: observedKeyPaths.fetchDescriptor)
            return descriptorStorage
        }
        set {
            withMutation(keyPath: observedKeyPaths.fetchDescriptor) { descriptorStorage = newValue }
            updateWatchedEntities()
            refresh(after: nil)
        }
    }

    @ObservationIgnored var resultsStorage = FetchResultsCollection<Element>(loaded: [])
    @ObservationIgnored var sectionsStorage: SectionedResults<Element, SectionTitle>?
    @ObservationIgnored var fetchErrorStorage: StrataError?
    @ObservationIgnored var descriptorStorage: FetchDescriptor<Element>
    private let observedKeyPaths = ObservedKeyPaths()

    /// The key paths of the observed properties, made once.
    private struct ObservedKeyPaths {
        let results: KeyPath<ResultsObserver, FetchResultsCollection<Element>> = \.results
        let sections: KeyPath<ResultsObserver, SectionedResults<Element, SectionTitle>?> = \.sections
        let fetchError: KeyPath<ResultsObserver, StrataError?> = \.fetchError
        let fetchDescriptor: KeyPath<ResultsObserver, FetchDescriptor<Element>> = \.fetchDescriptor
    }

    /// The predicate of `fetchDescriptor`; setting it re-fetches before returning.
    public var filterBy: Predicate<Element>? {
        get { fetchDescriptor.predicate }
        set { fetchDescriptor.predicate = newValue }
    }

    /// The sort of `fetchDescriptor` (after the section title, when sectioned); setting it re-fetches before
    /// returning.
    public var sortBy: [SortDescriptor<Element>] {
        get { fetchDescriptor.sortBy }
        set { fetchDescriptor.sortBy = newValue }
    }

    /// Called on the observer's actor after every refresh that changed the results.
    @ObservationIgnored public var onChange: ((ResultsSnapshot<Element>) -> Void)?

    /// The context the observer fetches in.
    public let modelContext: ModelContext
    /// Keeps the container (and so the main context, which it owns) alive as long as the observer.
    let container: ModelContainer
    let entity: Schema.Entity?
    let sectionKeyPath: KeyPath<Element, SectionTitle>?
    let sectionSort: SortDescriptor<Element>?

    /// The version of each result's values when last published (see `ModelBackingData.Values.version`), to tell
    /// which models changed.
    @ObservationIgnored var publishedVersions: [ObjectIdentifier: UInt64] = [:]
    @ObservationIgnored var streams = PublishedStreams<ResultsSnapshot<Element>>()
    @ObservationIgnored var subscription: UInt64?
    /// The entities whose saves concern this observer (see `watchedEntityNames`), as last computed.
    @ObservationIgnored var watchedEntities: Set<String> = []
    /// The translated `effectiveDescriptor`, kept until the descriptor changes (translation isn't free, and an
    /// incremental refresh needs it after every save).
    @ObservationIgnored var translatedPlan: FetchPlan?
    /// What of the incremental-refresh rule the descriptor decides, worked out with `translatedPlan`; `nil` when
    /// every refresh re-runs the descriptor.
    @ObservationIgnored var incrementalRule: IncrementalRule?
    /// The primary keys of the published results, so an incremental refresh can tell at once whether a save
    /// concerns them.
    @ObservationIgnored var publishedKeys: Set<Int64> = []
    /// How many times the observer refreshed, by a fetch or incrementally (for tests of coalescing).
    @ObservationIgnored package internal(set) var fetchCount = 0
    /// How many of those refreshes were incremental (see `incrementalResults(after:entity:)`).
    @ObservationIgnored package internal(set) var incrementalRefreshCount = 0
    /// Whether a save may be applied to the results incrementally when the rule allows (default `true`); `false`
    /// re-runs the descriptor after every change, so tests can compare the two.
    @ObservationIgnored package var refreshesIncrementally = true
    /// Whether the results are exactly what the store held when last refreshed (no unsaved changes were mixed in),
    /// so a save can be applied to them incrementally.
    @ObservationIgnored var resultsMatchStore = false

    /// The actor the observer belongs to, where its refreshes run.
    let actor: any Actor

    init(
        context: ModelContext, descriptor: FetchDescriptor<Element>, sectionKeyPath: KeyPath<Element, SectionTitle>?,
        sectionSort: SortDescriptor<Element>?, isolation: isolated (any Actor)?
    ) throws {
        actor = isolation ?? MainActor.shared
        modelContext = context
        container = context.container
        entity = context.container.schema.entity(for: Element.self)
        descriptorStorage = descriptor
        self.sectionKeyPath = sectionKeyPath
        self.sectionSort = sectionSort
        if sectionKeyPath != nil { sectionsStorage = SectionedResults() }
        // Subscribe first, so nothing saved between the first fetch and the subscription goes unseen.
        if let entity {
            subscription = container.liveChanges.subscribe(
                self, entityNames: Set(entity.selfAndDescendants.map(\.name)), store: container.store, actor: actor)
        }
        updateWatchedEntities()
        refresh(after: nil)
        // As in SwiftData, a first fetch that fails throws; failures of later refreshes go to `fetchError`.
        if let fetchErrorStorage { throw fetchErrorStorage.thrownValue }
    }

    deinit {
        streams.finish()
        if let subscription { container.liveChanges.unsubscribe(subscription) }
    }
}
