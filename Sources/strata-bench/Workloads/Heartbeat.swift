import Foundation
import Strata
import StrataPostgres

/// `--heartbeat --store postgresql://…`: whether PostgreSQL fetches from many concurrent tasks hold up Swift's
/// cooperative thread pool. One task sleeps 10 ms in a loop and records how late each wake-up is, first with nothing
/// else running, then while `readers` tasks fetch over the server through model actors (their own serial queues, off
/// the pool), then while the same number of tasks fetch with plain contexts on the pool itself, which the server
/// article warns against.
enum HeartbeatRun {
    /// How many tasks fetch at once.
    static let readers = 64
    /// The heartbeat's period.
    static let period = Duration.milliseconds(10)

    /// One scenario's heartbeat lateness and the fetches that ran meanwhile.
    struct Measurement {
        var scenario: String
        var beats: Int
        var medianLatenessMs: Double
        var p99LatenessMs: Double
        var maximumLatenessMs: Double
        var fetches: Int
    }

    static func run(_ options: Options, url: URL) async throws -> [Measurement] {
        let schema = RawPostgresConnection.makeSchemaName("heartbeat")
        defer { RawPostgresConnection.dropSchema(schema, at: url) }
        let configuration = PostgresConfiguration(url: url, databaseSchema: schema, maximumConnections: 8)
        let container = try ModelContainer(
            for: Schema([Item.self]), migrationPlan: nil, configurations: [configuration])
        try RawPostgresConnection(url: url, schema: schema).copyRows(options.rows)
        let seconds = options.quick ? 1.0 : 5.0
        var results: [Measurement] = []
        results.append(try await measure("idle: nothing else running", seconds: seconds) { _ in 0 })
        results.append(
            try await measure("\(readers) model actors fetching over PostgreSQL", seconds: seconds) { deadline in
                try await fetchOnModelActors(container, until: deadline)
            })
        results.append(
            try await measure("\(readers) tasks fetching with plain contexts (on the pool)", seconds: seconds) {
                deadline in
                try await fetchOnThePool(container, until: deadline)
            })
        container.close()
        return results
    }

    /// Runs `load` until `seconds` have passed while the heartbeat beats beside it.
    private static func measure(
        _ scenario: String, seconds: Double, load: @escaping @Sendable (ContinuousClock.Instant) async throws -> Int
    ) async throws -> Measurement {
        let deadline = ContinuousClock.now + .seconds(seconds)
        let firstDue = ContinuousClock.now + period
        async let lateness = heartbeat(firstDue: firstDue, until: deadline)
        let fetches = try await load(deadline)
        let sorted = (await lateness).sorted()
        func percentile(_ fraction: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        return Measurement(
            scenario: scenario, beats: sorted.count, medianLatenessMs: percentile(0.5), p99LatenessMs: percentile(0.99),
            maximumLatenessMs: sorted.last ?? 0, fetches: fetches)
    }

    /// Sleeps `period` in a loop on the cooperative pool, returning how late each wake-up came, in milliseconds. The
    /// first wake-up is due at `firstDue` (one period after the scenario starts), so a heartbeat that can't even start
    /// until the load is over counts that whole wait as one late beat.
    private static func heartbeat(
        firstDue: ContinuousClock.Instant, until deadline: ContinuousClock.Instant
    ) async -> [Double] {
        await Task.detached {
            var lateness: [Double] = []
            var due = firstDue
            repeat {
                try? await Task.sleep(until: due, clock: .continuous)
                let now = ContinuousClock.now
                let late = now - due
                lateness.append(Double(late.components.attoseconds) / 1e15 + Double(late.components.seconds) * 1e3)
                due = now + period
            } while ContinuousClock.now < deadline
            return lateness
        }.value
    }

    private static func fetchOnModelActors(
        _ container: ModelContainer, until deadline: ContinuousClock.Instant
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    let reader = HeartbeatReader(modelContainer: container)
                    var fetches = 0
                    while ContinuousClock.now < deadline {
                        _ = try await reader.readPage()
                        fetches += 1
                    }
                    return fetches
                }
            }
            return try await group.reduce(0, +)
        }
    }

    private static func fetchOnThePool(
        _ container: ModelContainer, until deadline: ContinuousClock.Instant
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<readers {
                group.addTask {
                    let context = ModelContext(container)
                    var fetches = 0
                    while ContinuousClock.now < deadline {
                        _ = try context.fetch(HeartbeatReader.page)
                        fetches += 1
                    }
                    return fetches
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// The run as a table.
    static func table(_ results: [Measurement]) -> String {
        var lines = [
            "heartbeat every 10 ms beside \(readers) concurrent PostgreSQL readers (lateness in ms)",
            "| scenario | beats | median | p99 | max | fetches |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for result in results {
            let cells = [result.medianLatenessMs, result.p99LatenessMs, result.maximumLatenessMs]
                .map { $0.formatted(.number.precision(.fractionLength(2))) }
            lines.append(
                "| \(result.scenario) | \(result.beats) | \(cells.joined(separator: " | ")) | \(result.fetches) |")
        }
        return lines.joined(separator: "\n")
    }
}

/// A model actor reading one page of workload 3's query: what a server's request handler would run.
@ModelActor
actor HeartbeatReader {
    static var page: FetchDescriptor<Item> {
        let threshold = Query.scoreThreshold
        var descriptor = FetchDescriptor<Item>(
            predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
        descriptor.fetchLimit = Query.limit
        return descriptor
    }

    func readPage() throws -> Int {
        try modelContext.fetch(Self.page).count
    }
}
