import Foundation
import Strata

extension StrataWorkloads {
    /// Gives `context` the unsaved changes of workloads 10a and 10b: `Query.pendingChanges` of the rows the query
    /// returns first get a new score (some leave the first page, some stay), a tenth of that many are deleted,
    /// and as many are inserted with scores inside the page.
    private func makePendingChanges(_ context: ModelContext) throws {
        let threshold = Query.scoreThreshold
        var first = FetchDescriptor<Item>(predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
        first.fetchLimit = Query.pendingChanges + Query.pendingChanges / 10
        let items = try context.fetch(first)
        for (index, item) in items.enumerated() {
            if index < Query.pendingChanges {
                item.score = index.isMultiple(of: 2) ? item.score + 0.25 : item.score + 0.000_000_1
            } else {
                context.delete(item)
            }
        }
        for index in 0..<(Query.pendingChanges / 10) {
            var row = ItemRow.make(options.largeRows + index)
            row.score = Query.scoreThreshold + Double(index) * 0.000_000_1
            context.insert(Item(row))
        }
    }

    func sortedLimitWithPendingChanges() throws -> Sample {
        let context = try largeContext()
        try makePendingChanges(context)
        defer { context.rollback() }
        let threshold = Query.scoreThreshold
        return Sample(milliseconds: try Harness.time {
            var descriptor = FetchDescriptor<Item>(predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
            descriptor.fetchLimit = Query.limit
            consume(try context.fetch(descriptor))
        })
    }

    func countWithPendingChanges() throws -> Sample {
        let context = try largeContext()
        try makePendingChanges(context)
        defer { context.rollback() }
        let below = Query.countBelow
        return Sample(milliseconds: try Harness.time {
            consume(try context.fetchCount(FetchDescriptor<Item>(predicate: #Predicate { $0.flagged == true && $0.count < below })))
        })
    }
}
