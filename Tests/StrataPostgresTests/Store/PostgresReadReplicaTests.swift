import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataPostgres
@testable import StrataTestFixtures

/// One row of the replica runs.
@Model
final class ReplicaEntry {
    var number: Int
    init(number: Int) { self.number = number }
}

/// Reads served by a deliberately delayed hot standby (`recovery_min_apply_delay`): a container never reads its
/// own saves stale, and live results of another instance follow saves it learns of from the primary. Slow (a primary
/// and a standby of their own): runs with the failover tier (`STRATA_FAILOVER_TESTS=1`).
@Suite(
    "PostgreSQL read replicas: read-your-writes on a delayed standby", .enabled(if: TestTier.runsFailoverTests),
    .serialized)
struct PostgresReadReplicaTests {
    static let applyDelay = Duration.milliseconds(400)

    private func configuration(
        _ clusters: ReplicatedPostgresClusters, schema: String, wait: Duration
    ) -> PostgresConfiguration {
        var configuration = PostgresConfiguration(url: clusters.primary.url(), databaseSchema: schema)
        configuration.readReplicas = [clusters.standby.url()]
        configuration.maximumReplicaWait = wait
        return configuration
    }

    private func store(_ container: ModelContainer) throws -> PostgresStore {
        try #require(container.store as? PostgresStore)
    }

    @Test("Each fetch right after a save sees it: waiting for the standby when the wait allows, else on the primary")
    func ownWritesAreNeverReadStale() async throws {
        let clusters = try #require(try await ReplicatedPostgresClusters.make(standbyApplyDelay: Self.applyDelay))
        for (wait, schema) in [(Duration.seconds(3), "replica_wait"), (Duration.milliseconds(20), "replica_fallback")] {
            let container = try ModelContainer(
                for: Schema([ReplicaEntry.self]), migrationPlan: nil,
                configurations: [configuration(clusters, schema: schema, wait: wait)])
            let context = ModelContext(container)
            var stale = 0
            for number in 1...5 {
                context.insert(ReplicaEntry(number: number))
                try context.save()
                // A fresh context: nothing registered, every row comes from the server that serves the read.
                let reader = ModelContext(container)
                if try reader.fetchCount(FetchDescriptor<ReplicaEntry>()) != number { stale += 1 }
                if try reader.fetch(FetchDescriptor<ReplicaEntry>()).map(\.number).max() != number { stale += 1 }
            }
            #expect(stale == 0, "\(stale) reads missed the container's own save (wait \(wait))")
            let counts = try store(container).replicaReadCounts
            if wait > Self.applyDelay {
                #expect(counts.replica == 10 && counts.primary == 0, "wait \(wait): \(counts)")
            } else {
                #expect(
                    counts.primary == 10,
                    "wait \(wait): the standby replays 400 ms late, so every read fell back: \(counts)")
            }
            // With nothing new written, the standby catches up and serves every read.
            try await Task.sleep(for: Self.applyDelay * 2)
            for _ in 0..<20 { _ = try ModelContext(container).fetchCount(FetchDescriptor<ReplicaEntry>()) }
            let after = try store(container).replicaReadCounts
            #expect(after.replica == counts.replica + 20, "wait \(wait): \(after)")
            print(
                "◇ read replicas, wait \(wait): \(after.replica) of \(after.replica + after.primary) reads on the standby"
            )
        }
    }

    @MainActor
    @Test("An observer reading the standby shows another instance's save once it learns of it from the primary")
    func observersOnAReplicaFollowOtherInstances() async throws {
        let clusters = try #require(try await ReplicatedPostgresClusters.make(standbyApplyDelay: Self.applyDelay))
        let configuration = configuration(clusters, schema: "replica_live", wait: .seconds(3))
        let schema = Schema([ReplicaEntry.self])
        let writer = try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        let observing = try ModelContainer(for: schema, migrationPlan: nil, configurations: [configuration])
        let results = try ResultsObserver(sortBy: [SortDescriptor(\ReplicaEntry.number)], modelContainer: observing)
        #expect(results.results.isEmpty)
        let before = try store(observing).replicaReadCounts

        let context = ModelContext(writer)
        for number in 1...3 { context.insert(ReplicaEntry(number: number)) }
        try context.save()
        // The standby replays the save 400 ms late; the observer's refresh waits for it instead of showing nothing.
        let shown = await LiveFixtures.eventually(within: .seconds(15)) { results.results.map(\.number) == [1, 2, 3] }
        #expect(shown, "the observer shows \(results.results.map(\.number))")
        let after = try store(observing).replicaReadCounts
        #expect(after.replica > before.replica, "the observer's refresh read the primary: \(before) → \(after)")
        withExtendedLifetime((writer, observing, results)) {}
    }
}
