import Foundation
import Strata

extension StrataWorkloads {
    /// Workloads 18c and 18d with Strata: an `AggregateObserver` on the main context, one row's `count` changed in
    /// another context and saved, timed from just before `save()` until the observer's `onChange` runs with the new
    /// totals (the time is read inside the callback). The main actor is pumped with `await Task.yield()`; nothing
    /// sleeps.
    @MainActor
    func liveAggregate(slice: Bool) async throws -> Sample {
        let query = LiveAggregateQuery(options: options, slice: slice)
        let path = TemporaryStore.makePath("strata-live-aggregate")
        defer { TemporaryStore.remove(path) }
        let container = try makeContainer(path: path, rows: query.rows)
        var descriptor = AggregateDescriptor(
            groupBy: \Item.category, aggregates: .count, .sum(\.count), .maximum(\.weight))
        var targets = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.id)])
        if let bound = query.scoreBelow {
            descriptor.predicate = #Predicate { $0.score < bound }
            targets.predicate = #Predicate { $0.score < bound }
        }
        let observer = try AggregateObserver(aggregateDescriptor: descriptor, modelContext: container.mainContext)
        let published = PublishedInstant()
        observer.onChange = { _ in published.instant = ContinuousClock.now }
        let writer = ModelContext(container)
        let items = try writer.fetch(targets)
        var latencies: [Double] = []
        for number in 0..<query.changes {
            let item = items[query.target(number, among: items.count)]
            item.count += 1
            published.instant = nil
            let start = ContinuousClock.now
            try writer.save()
            while published.instant == nil { await Task.yield() }
            latencies.append(Harness.milliseconds((published.instant ?? start) - start))
        }
        consume(observer.results.count)
        return Sample(
            milliseconds: Harness.median(latencies), p99Milliseconds: LiveQuery.percentile(0.99, of: latencies))
    }
}

/// When an observer last published, set inside its `onChange`.
@MainActor
private final class PublishedInstant {
    var instant: ContinuousClock.Instant?
}
