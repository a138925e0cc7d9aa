import Foundation
@testable import Strata
import Testing

@MainActor
@Suite("ResultsObserver: incremental refresh timing")
struct ResultsObserverIncrementalTimingTests {
    /// Prints how long one saved row takes to reach 100 observers over 20,000 rows, applied incrementally and by
    /// refetching. Timings are printed, not asserted; what is asserted is that both paths ran and agreed.
    @Test func oneChangedRowReachesAHundredObservers() async throws {
        let container = try ModelContainer(for: LiveRow.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let writer = ModelContext(container)
        var rows: [LiveRow] = []
        for index in 0..<20_000 {
            let row = LiveRow(name: "row \(index % 997)", rank: index % 100, score: Double(index % 10) / 10)
            rows.append(row)
            writer.insert(row)
        }
        try writer.save()
        let observed = ModelContext(container)
        let observers = (0..<100).map { bucket in
            ResultsObserver(filterBy: #Predicate<LiveRow> { $0.rank == bucket }, sortBy: [SortDescriptor(\.name)],
                            modelContext: observed)
        }

        var report: [String] = []
        for incremental in [true, false] {
            for observer in observers { observer.refreshesIncrementally = incremental }
            var timings: [Duration] = []
            for round in 0..<3 {
                rows[round].name = "renamed \(incremental) \(round)"
                let before = observers.map(\.fetchCount)
                let start = ContinuousClock.now
                try writer.save()
                let delivered = await LiveFixtures.eventually(within: .seconds(30)) {
                    zip(observers, before).allSatisfy { $0.fetchCount > $1 }
                }
                timings.append(ContinuousClock.now - start)
                #expect(delivered)
            }
            let refreshes = observers.map(\.incrementalRefreshCount).reduce(0, +)
            report.append("\(incremental ? "incremental" : "full refetch"): \(timings.map { $0.formatted(.units(allowed: [.milliseconds], fractionalPart: .show(length: 1))) }) "
                + "(incremental refreshes so far: \(refreshes))")
        }
        print("100 observers × 20,000 rows, one row saved → all delivered:\n  " + report.joined(separator: "\n  "))

        #expect(observers.map(\.incrementalRefreshCount).reduce(0, +) == 300)
        let fresh = ModelContext(container)
        for (bucket, observer) in observers.enumerated() {
            let expected = try fresh.fetch(FetchDescriptor(predicate: #Predicate<LiveRow> { $0.rank == bucket },
                                                           sortBy: [SortDescriptor(\.name)]))
            #expect(observer.results.map(\.persistentModelID) == expected.map(\.persistentModelID))
        }
    }
}
