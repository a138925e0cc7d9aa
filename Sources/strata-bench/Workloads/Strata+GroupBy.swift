import Foundation
import Strata

extension StrataWorkloads {
    /// Workload 18a: per category (10 groups), the row count, the sum of `count` and the largest `weight`.
    func groupByCategory() throws -> Sample {
        try groupBy(AggregateDescriptor(groupBy: \Item.category, aggregates: .count, .sum(\.count), .maximum(\.weight)))
    }

    /// Workload 18b: the same totals per value of `count` (10,000 groups).
    func groupByCount() throws -> Sample {
        try groupBy(AggregateDescriptor(groupBy: \Item.count, aggregates: .count, .sum(\.count), .maximum(\.weight)))
    }

    private func groupBy<Key>(_ descriptor: AggregateDescriptor<Item, Key, (Int, Int, Double?)>) throws -> Sample {
        let context = try largeContext()
        return try Harness.measure(rows: options.largeRows) {
            var checksum = 0
            for group in try context.fetch(descriptor) {
                checksum &+= group.value.0 &+ group.value.1 &+ Int(group.value.2 ?? 0)
            }
            consume(checksum)
        }
    }
}
