import Foundation
import Strata
import StrataPostgres
import Synchronization

/// `load`: `processes` app processes × `contexts` model actors against one PostgreSQL database for a bounded time,
/// in a realistic mix (four `#Predicate` reads to one save of two models and an increment of the process's counter),
/// each process with a live observer. Reports throughput, save and read latency, how long a save takes to show in
/// the other processes' observers, the server connections used and errors by kind; the counters must add up to the
/// increments that returned success.
struct LoadCommand {
    let url: URL
    let processes: Int
    let contexts: Int
    let seconds: Double

    func run() throws -> Bool {
        let scratch = try ScratchDirectory("load")
        defer { scratch.remove() }
        let databaseSchema = "strata_load_" + UUID().uuidString.prefix(8).lowercased()
        defer { dropSchema(databaseSchema) }
        // The store is created before the workers start, so their opens find it made.
        _ = try ModelContainer(
            for: Schema([LoadEvent.self, LoadCounter.self]), migrationPlan: nil,
            configurations: [PostgresConfiguration(url: url, databaseSchema: databaseSchema)])
        let sampler = ConnectionSampler(url: url)
        var children: [Process] = []
        for worker in 0..<processes {
            children.append(
                try ChildProcess.start([
                    "load-worker", "--store", url.absoluteString, "--schema", databaseSchema, "--worker", "\(worker)",
                    "--contexts", "\(contexts)", "--seconds", "\(seconds)", "--output",
                    scratch.file("worker-\(worker).json"),
                ]))
        }
        var total = LoadTally()
        var failedWorkers = 0
        for (worker, child) in children.enumerated() {
            child.waitUntilExit()
            guard child.terminationStatus == 0,
                let data = FileManager.default.contents(atPath: scratch.file("worker-\(worker).json")),
                let tally = try? JSONDecoder().decode(LoadTally.self, from: data)
            else {
                failedWorkers += 1
                report("load: worker \(worker) failed (exit \(child.terminationStatus))")
                continue
            }
            total.merge(tally)
        }
        let connections = sampler.stop()
        let configuration = PostgresConfiguration(url: url, databaseSchema: databaseSchema)
        let counter = try ModelContext(
            try ModelContainer(
                for: Schema([LoadEvent.self, LoadCounter.self]), migrationPlan: nil,
                configurations: [configuration])
        ).fetch(FetchDescriptor<LoadCounter>())
            .reduce(0) { $0 + $1.value }
        let lost = total.increments - counter
        let errors =
            total.errors.isEmpty
            ? "none" : total.errors.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        report("load: \(processes) processes x \(contexts) contexts for \(seconds) s on PostgreSQL")
        report(
            "  throughput: \(Int(Double(total.reads + total.saves) / seconds)) operations/s (\(total.reads) reads, \(total.saves) saves, "
                + "\(total.conflicts) conflicts retried)")
        report(
            "  save latency: \(Self.percentiles(total.saveMilliseconds)); read latency: \(Self.percentiles(total.readMilliseconds))"
        )
        report(
            "  save → other processes' observers: \(Self.percentiles(total.observedMilliseconds)) over \(total.observedMilliseconds.count) events"
        )
        report("  server connections: at most \(connections) (pool \(contexts + 1) + LISTEN per process)")
        report("  errors: \(errors); counters \(counter), increments \(total.increments), lost \(lost)")
        return lost == 0 && total.errors.isEmpty && failedWorkers == 0
    }

    /// The median and 99th percentile of `values`, in milliseconds.
    static func percentiles(_ values: [Double]) -> String {
        guard !values.isEmpty else { return "n/a" }
        let sorted = values.sorted()
        func at(_ fraction: Double) -> String {
            sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))].formatted(
                .number.precision(.fractionLength(1)))
        }
        return "p50 \(at(0.5)) ms, p99 \(at(0.99)) ms"
    }

    private func dropSchema(_ name: String) {
        guard let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
        try? connection.execute("DROP SCHEMA IF EXISTS \(PostgreSQLDialect().quote(identifier: name)) CASCADE")
    }
}

/// Counts the server's client connections to the database every 100 ms on a thread of its own, keeping the most.
private final class ConnectionSampler: Sendable {
    private let most = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    init(url: URL) {
        let thread = Thread { [self] in
            defer { done.signal() }
            guard let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
            while !stopped.load(ordering: .relaxed) {
                let query =
                    "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' "
                    + "AND pid <> pg_backend_pid()"
                if let result = try? connection.query(query, []), result.count > 0 {
                    _ = most.max(Int(result.int64(row: 0, column: 0)), ordering: .relaxed)
                }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        thread.start()
    }

    /// Stops sampling and returns the most connections seen.
    func stop() -> Int {
        stopped.store(true, ordering: .relaxed)
        done.wait()
        return most.load(ordering: .relaxed)
    }
}
