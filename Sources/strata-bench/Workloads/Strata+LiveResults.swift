import Foundation
import Strata

/// Workload 8 with Strata: `ResultsObserver`s on the main context, one row changed in another context and saved.
///
/// Each change is timed from just before `save()`:
/// - affecting one observer: until that observer's `onChange` runs with the new results (the time is read inside
///   the callback);
/// - affecting none: until every observer has finished the refresh the save scheduled (each observer's
///   `fetchCount` has grown; this is polled between `Task.yield()`s, so it includes at most one extra turn of the
///   main actor). Every observer of the entity refreshes after every save of it — incrementally (the saved row is
///   loaded and judged in memory) unless told to re-run its query — so this is the save plus 100 refreshes that
///   publish nothing.
///
/// Between changes the main actor is drained the same way, so no refresh of one change runs inside another's
/// timing. Nothing sleeps: the main actor is pumped with `await Task.yield()`.
@MainActor
final class StrataLiveResults {
    private let query: LiveQuery
    private let container: ModelContainer
    private let writer: ModelContext
    private var observers: [ResultsObserver<Item, Never>] = []
    /// When each observer last published, set inside its `onChange`.
    private var publishedAt: [ContinuousClock.Instant?]

    /// Opens `container` (already holding `query.rows` rows) and starts `query.observers` observers on its main
    /// context.
    init(query: LiveQuery, container: ModelContainer, incremental: Bool) throws {
        self.query = query
        self.container = container
        writer = ModelContext(container)
        publishedAt = Array(repeating: nil, count: query.observers)
        observers = try query.makeObservers(on: container.mainContext) { [unowned self] index in
            self.publishedAt[index] = ContinuousClock.now
        }
        for observer in observers { observer.refreshesIncrementally = incremental }
    }

    /// Times `query.changes` one-row changes and returns the median and p99 in milliseconds.
    func run(affecting: Bool) async throws -> Sample {
        var latencies: [Double] = []
        for number in 0..<query.changes {
            let target = query.target(number, affecting: affecting)
            guard let item = try writer.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.id == target })).first
            else {
                throw RawSQLiteError(description: "live results: no item \(target)")
            }
            let affected = affecting ? query.observer(showing: item.score) : nil
            item.weight += 1
            publishedAt = Array(repeating: nil, count: query.observers)
            let fetchesBefore = observers.map(\.fetchCount)
            let start = ContinuousClock.now
            try writer.save()
            if let affected {
                while publishedAt[affected] == nil { await Task.yield() }
            }
            while zip(observers, fetchesBefore).contains(where: { $0.fetchCount == $1 }) { await Task.yield() }
            let end = affected.flatMap { publishedAt[$0] } ?? ContinuousClock.now
            if !affecting, let stray = publishedAt.firstIndex(where: { $0 != nil }) {
                throw RawSQLiteError(description: "live results: observer \(stray) published after an unrelated change")
            }
            latencies.append(Harness.milliseconds(end - start))
        }
        return Sample(
            milliseconds: Harness.median(latencies), p99Milliseconds: LiveQuery.percentile(0.99, of: latencies))
    }
}

extension StrataWorkloads {
    /// Workload 8 on a fresh store: sets up the observers (untimed), then times one-row changes. `incremental`
    /// chooses how observers refresh: by applying the saved rows to their results, or by re-running their query.
    @MainActor
    func liveResults(affecting: Bool, incremental: Bool = true) async throws -> Sample {
        let query = LiveQuery(options: options)
        let path = TemporaryStore.makePath("strata-live")
        defer { TemporaryStore.remove(path) }
        let live = try StrataLiveResults(
            query: query, container: makeContainer(path: path, rows: query.rows), incremental: incremental)
        return try await live.run(affecting: affecting)
    }
}
