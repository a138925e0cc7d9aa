import Foundation
import StrataTestSupport
import Synchronization
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// One row of a failover run's saves: each save inserts `FailoverEntry.perSave` of them with its writer and number.
@Model
final class FailoverEntry {
    static let perSave = 3

    var writer: Int
    var save: Int
    var part: Int

    init(writer: Int, save: Int, part: Int) {
        self.writer = writer
        self.save = save
        self.part = part
    }
}

/// A primary killed and its synchronous standby promoted under app instances saving and observing. Slow (two
/// clusters of its own): runs when `STRATA_FAILOVER_TESTS=1`, as `.ci/run` sets it.
@Suite("PostgreSQL failover: primary killed, standby promoted", .enabled(if: TestTier.runsFailoverTests), .serialized)
struct PostgresFailoverTests {
    /// What one writer saw of one save.
    struct Outcome: Sendable {
        let save: Int
        let succeeded: Bool
        let error: String?
        let finished: ContinuousClock.Instant
    }

    /// An app instance saving on a thread of its own, one new context per save, until stopped.
    final class Writer: Sendable {
        let number: Int
        let outcomes = Mutex<[Outcome]>([])
        private let stopped = Atomic<Bool>(false)
        private let done = DispatchSemaphore(value: 0)

        init(number: Int, container: ModelContainer) {
            self.number = number
            let thread = Thread { [self] in
                var save = 0
                while !stopped.load(ordering: .relaxed) {
                    save += 1
                    let context = ModelContext(container)
                    for part in 0..<FailoverEntry.perSave {
                        context.insert(FailoverEntry(writer: number, save: save, part: part))
                    }
                    var failure: String?
                    do { try context.save() } catch {
                        switch StrataError(error) {
                        case .storeFailure?: failure = "storeFailure: \(error)"
                        case .some: failure = "\(error)"
                        case nil: failure = "not a StrataError: \(error)"
                        }
                    }
                    let outcome = Outcome(save: save, succeeded: failure == nil, error: failure, finished: .now)
                    outcomes.withLock { $0.append(outcome) }
                    Thread.sleep(forTimeInterval: failure == nil ? 0.01 : 0.05)
                }
                done.signal()
            }
            thread.start()
        }

        /// The first success that finished after `instant`.
        func firstSuccess(after instant: ContinuousClock.Instant) -> ContinuousClock.Instant? {
            outcomes.withLock { $0.first { $0.succeeded && $0.finished > instant }?.finished }
        }

        func stop() async {
            stopped.store(true, ordering: .relaxed)
            await onOwnThread { [done] in done.wait() }
        }
    }

    @MainActor
    @Test("Every acknowledged save survives, none is half-written, the pool and the observers follow the new primary")
    func primaryKilledStandbyPromoted() async throws {
        let clusters = try #require(try await ReplicatedPostgresClusters.make())
        let configuration = PostgresConfiguration(url: clusters.url, databaseSchema: "failover")
        let schema = Schema([FailoverEntry.self])
        let observing = try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        let results = try ResultsObserver(sortBy: [SortDescriptor(\FailoverEntry.save)], modelContainer: observing)
        let history = try HistoryObserver(observedModels: [FailoverEntry.self], modelContainer: observing)
        let observed = Mutex<[PersistentIdentifier]>([])
        let transactions = history.transactions
        let collector = Task { @MainActor in
            for await transaction in transactions {
                let inserted = transaction.changes.compactMap { change -> PersistentIdentifier? in
                    if case .insert(let insert) = change { return insert.changedPersistentIdentifier }
                    return nil
                }
                observed.withLock { $0 += inserted }
            }
        }

        let writers = try (1...2).map {
            Writer(
                number: $0,
                container: try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration]))
        }
        try await Task.sleep(for: .seconds(1))
        let killed = ContinuousClock.now
        try await clusters.primary.stop(.immediate)
        // What the app sees while no server accepts writes.
        try await Task.sleep(for: .milliseconds(500))
        let promoting = ContinuousClock.now
        try await clusters.standby.promote()
        let promoted = ContinuousClock.now
        var recovered: [Duration] = []
        for writer in writers {
            let deadline = ContinuousClock.now + .seconds(15)
            while writer.firstSuccess(after: promoted) == nil, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(10))
            }
            let first = try #require(
                writer.firstSuccess(after: promoted), "writer \(writer.number) never saved after the promotion")
            recovered.append(first - promoting)
        }
        try await Task.sleep(for: .seconds(1))
        for writer in writers { await writer.stop() }

        // The new primary's rows, read by a container opened after the failover.
        let after = ModelContext(try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration]))
        let stored = try after.fetch(FetchDescriptor<FailoverEntry>())
        var parts: [[Int]: Int] = [:]
        for entry in stored { parts[[entry.writer, entry.save], default: 0] += 1 }
        #expect(
            parts.values.allSatisfy { $0 == FailoverEntry.perSave },
            "a save stored in part: \(parts.filter { $0.value != FailoverEntry.perSave })")
        var checked = 0, failed = 0, failedButCommitted = 0
        for writer in writers {
            for outcome in writer.outcomes.withLock({ $0 }) {
                let present = parts[[writer.number, outcome.save]] != nil
                if outcome.succeeded {
                    checked += 1
                    #expect(present, "writer \(writer.number)'s save \(outcome.save) returned success but is gone")
                } else {
                    failed += 1
                    if present { failedButCommitted += 1 }
                    let error = outcome.error ?? ""
                    #expect(error.hasPrefix("storeFailure"), "\(error)")
                }
            }
        }
        #expect(failed > 0, "no save failed: the failover happened between saves")

        // Observers of a third instance: every stored row, each reported once.
        let storedIDs = Set(stored.map(\.persistentModelID))
        #expect(
            await LiveFixtures.eventually(within: .seconds(15)) {
                Set(results.results.map(\.persistentModelID)) == storedIDs
            })
        let historyCaughtUp = await LiveFixtures.eventually(within: .seconds(15)) {
            observed.withLock { Set($0) } == storedIDs
        }
        let seen = observed.withLock { Set($0) }
        #expect(
            historyCaughtUp,
            "history observer: \(storedIDs.subtracting(seen).count) stored rows never reported, \(seen.subtracting(storedIDs).count) reported rows not stored, of \(storedIDs.count)"
        )
        let reported = observed.withLock { $0 }
        #expect(
            reported.count == Set(reported).count,
            "the history observer reported \(reported.count - Set(reported).count) inserts twice")
        collector.cancel()
        let figures =
            "failover: \(checked) acknowledged saves checked, 0 lost; \(failed) failed during the outage "
            + "(\(failedButCommitted) of them committed); killed→promoted \(promoted - killed), "
            + "promote→first save per instance \(recovered)"
        print("◇ \(figures)")
        for duration in recovered { #expect(duration < .seconds(10)) }
        withExtendedLifetime((observing, results, history)) {}
    }
}
