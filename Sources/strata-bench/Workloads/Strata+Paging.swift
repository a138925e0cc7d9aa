import Foundation
import Strata

/// Workloads 11 (batched fetch and enumerate of a sorted, filtered million rows) and 15 (one change saved from
/// a context holding many models) with Strata.
extension StrataWorkloads {
    /// The query of workloads 3 and 11: rows with `score` above the threshold, by `score`.
    private var sortedDescriptor: FetchDescriptor<Item> {
        let threshold = Query.scoreThreshold
        return FetchDescriptor<Item>(predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
    }

    /// Workload 11a/11b: `fetch(_:batchSize:)`, then every model of the first or the last batch read.
    func page(last: Bool) throws -> Sample {
        let context = try largeContext()
        return try Harness.measure(rows: Query.enumerateBatch) {
            let results = try context.fetch(sortedDescriptor, batchSize: Query.enumerateBatch)
            // The last batch as the collection cuts it (batches start at multiples of the batch size).
            let start = last ? max(results.count - 1, 0) / Query.enumerateBatch * Query.enumerateBatch : 0
            var checksum = 0
            for index in start..<min(start + Query.enumerateBatch, results.count) {
                checksum &+= results[index].checksum
            }
            consume(checksum)
        }
    }

    /// Stops an enumeration after its first page.
    private struct FirstPageRead: Error {}

    /// Workload 11c/11d: `enumerate` with the sorted query, stopped after the first page or run to the end.
    func enumerateSorted(firstPageOnly: Bool) throws -> Sample {
        let context = try largeContext()
        return try Harness.timeWithMemory {
            var checksum = 0
            var seen = 0
            do {
                try context.enumerate(sortedDescriptor, batchSize: Query.enumerateBatch) { item in
                    checksum &+= item.checksum
                    seen += 1
                    if firstPageOnly, seen == Query.enumerateBatch { throw FirstPageRead() }
                }
            } catch is FirstPageRead {}
            consume(checksum)
        }
    }

    /// Workload 16: `enumerate` of the whole large store in a context that already holds `rows` models of it
    /// (fetched untimed): those stay registered, the others are released page by page.
    func enumerateWithRegistered() throws -> Sample {
        let context = try largeContext()
        var held = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.id)])
        held.fetchLimit = options.rows
        let registered = try context.fetch(held)
        return try Harness.timeWithMemory(rows: options.largeRows) {
            var checksum = 0
            try context.enumerate(FetchDescriptor<Item>(), batchSize: Query.enumerateBatch) { checksum &+= $0.checksum }
            consume(checksum)
            consume(registered)
        }
    }

    /// Workload 15a/15b: a context that has fetched `registered` models (every row, or one) changes one and saves.
    func saveOneChange(registeringAll: Bool) throws -> Sample {
        let context = try largeContext()
        var descriptor = FetchDescriptor<Item>(sortBy: [SortDescriptor(\.id)])
        if !registeringAll { descriptor.fetchLimit = 1 }
        let items = try context.fetch(descriptor)
        guard let first = items.first else { return Sample(milliseconds: 0) }
        return Sample(
            milliseconds: try Harness.time {
                first.weight += 1
                try context.save()
            })
    }
}
