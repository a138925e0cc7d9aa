import Foundation
import Strata

extension StrataWorkloads {
    /// Gives `context` the unsaved changes of workloads 10a and 10b: `Query.pendingChanges` of the rows the query
    /// returns first get a new score (some leave the first page, some stay), a tenth of that many are deleted,
    /// and as many are inserted with scores inside the page.
    private func makePendingChanges(_ context: ModelContext) throws {
        let threshold = Query.scoreThreshold
        var first = FetchDescriptor<Item>(
            predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
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

    /// Runs `body` on a context of the large store holding the unsaved changes, then rolls them back.
    private func withPendingChanges(_ body: (ModelContext) throws -> Sample) throws -> Sample {
        let context = try largeContext()
        try makePendingChanges(context)
        defer { context.rollback() }
        return try body(context)
    }

    func sortedLimitWithPendingChanges() throws -> Sample {
        try withPendingChanges(sortedLimit(in:))
    }

    func countWithPendingChanges() throws -> Sample {
        try withPendingChanges(count(in:))
    }
}
