import Foundation
import Strata
import StrataPostgres

/// Workload 17: "another process saved → observer published". A second `strata-bench` process (started with
/// `STRATA_BENCH_WRITER_STORE` set, see ``CrossProcessWriter``) changes one row and saves; this process has
/// `LiveQuery`'s 100 `ResultsObserver`s on its main context, and the change reaches them through the store's
/// history feed (SQLite: the data version polled; PostgreSQL: `LISTEN`/`NOTIFY`).
///
/// Each change is timed from just before the writer's `save()` to the affected observer's `onChange` (both read
/// `CLOCK_MONOTONIC`, which every process shares). The floor ("raw") is the same save in the same writer process,
/// timed until its own message over a pipe arrives here: what telling the other process directly would cost.
/// Between changes the main actor is drained until every observer has handled the change, then the next change
/// waits 0–20 ms (evenly spread), as saves of another process arrive at any time. The workload prints
/// its median, p95 and p99 on standard error.
@MainActor
final class CrossProcessLiveResults {
    /// Changes timed per run.
    static let changes = 100
    private let query: LiveQuery
    private let writer: CrossProcessWriter.Connection
    private var observers: [ResultsObserver<Item, Never>] = []
    private var publishedAt: [UInt64?]

    /// Starts the writer on `store` (already holding `query.rows` rows) and the observers on `container`.
    init(query: LiveQuery, container: ModelContainer, store: CrossProcessWriter.Store) throws {
        self.query = query
        writer = try CrossProcessWriter.Connection(store: store)
        publishedAt = Array(repeating: nil, count: query.observers)
        observers = try query.makeObservers(on: container.mainContext) { [unowned self] index in
            self.publishedAt[index] = CrossProcessWriter.now()
        }
    }

    /// Times ``changes`` one-row changes: until the affected observer publishes, or (`floor`) until the writer's
    /// reply arrives.
    func run(floor: Bool) async throws -> Sample {
        var latencies: [Double] = []
        for number in 0..<Self.changes {
            let target = query.target(number, affecting: true)
            // A pause of 0–20 ms, spread evenly over the changes, so saves fall at every phase of a polling watcher
            // (back to back, each would land just after a poll and wait a whole interval).
            try await Task.sleep(for: .microseconds((number * 7_919) % 20_000))
            let fetchesBefore = observers.map(\.fetchCount)
            publishedAt = Array(repeating: nil, count: query.observers)
            try writer.send(target)
            let saved: UInt64
            let end: UInt64
            if floor {
                saved = try writer.reply()
                end = CrossProcessWriter.now()
            } else {
                var affected: Int?
                while affected == nil {
                    await Task.yield()
                    affected = publishedAt.firstIndex { $0 != nil }
                }
                end = publishedAt[affected!]!
                saved = try writer.reply()
            }
            // Every observer handles the change before the next one (the floor's too, so both runs see one load).
            while zip(observers, fetchesBefore).contains(where: { $0.fetchCount == $1 }) { await Task.yield() }
            latencies.append(Double(end &- saved) / 1e6)
        }
        let label = floor ? "floor (pipe)" : "observer published"
        FileHandle.standardError.write(
            Data(
                String(
                    format: "  11 %@: median %.2f ms, p95 %.2f ms, p99 %.2f ms\n", label, Harness.median(latencies),
                    LiveQuery.percentile(0.95, of: latencies), LiveQuery.percentile(0.99, of: latencies)
                ).utf8))
        return Sample(
            milliseconds: Harness.median(latencies), p99Milliseconds: LiveQuery.percentile(0.99, of: latencies))
    }
}

extension StrataWorkloads {
    /// Workload 17 on a fresh SQLite file, or (`postgres`) a fresh schema of the server at `STRATA_POSTGRES_URL`.
    @MainActor
    func crossProcessLiveResults(postgres: URL?, floor: Bool) async throws -> Sample {
        let query = LiveQuery(options: options)
        if let postgres {
            let schema = "strata_bench_" + UUID().uuidString.prefix(8).lowercased()
            let configuration = PostgresConfiguration(url: postgres, databaseSchema: schema)
            let container = try ModelContainer(
                for: Schema([Item.self]), migrationPlan: nil, configurations: [configuration])
            defer { CrossProcessWriter.dropSchema(schema, at: postgres) }
            let rows = min(query.rows, 10_000)
            let context = ModelContext(container)
            for index in 0..<rows { context.insert(Item(ItemRow.make(index))) }
            try context.save()
            var smaller = query
            smaller.rows = rows
            let live = try CrossProcessLiveResults(
                query: smaller, container: container, store: .postgres(postgres, schema: schema))
            return try await live.run(floor: floor)
        }
        let path = TemporaryStore.makePath("strata-cross-process")
        defer { TemporaryStore.remove(path) }
        let live = try CrossProcessLiveResults(
            query: query, container: makeContainer(path: path, rows: query.rows), store: .sqlite(path))
        return try await live.run(floor: floor)
    }
}

extension CrossProcessLiveResults {
    /// Workload 17 on SQLite, and on PostgreSQL when `STRATA_POSTGRES_URL` names a server.
    static func workloads(_ strata: StrataWorkloads, options: Options) -> [Workload] {
        let observers = LiveQuery(options: options).observers
        var stores: [(name: String, url: URL?)] = [("SQLite", nil)]
        if let url = ProcessInfo.processInfo.environment["STRATA_POSTGRES_URL"].flatMap(URL.init(string:)) {
            stores.append(("PostgreSQL", url))
        }
        return zip(["17a", "17b"], stores).map { number, store in
            Workload(
                name:
                    "\(number) live across processes (\(store.name)): another process saves 1 row, until 1 of \(observers) observers publishes",
                raw: { try await strata.crossProcessLiveResults(postgres: store.url, floor: true) },
                strata: { try await strata.crossProcessLiveResults(postgres: store.url, floor: false) },
                rounds: 1)
        }
    }
}

extension LiveQuery {
    /// Workload 8's and 17's observers on `context`: observer *k* shows the active items of slice *k* by score, and
    /// calls `published(k)` from its `onChange`.
    @MainActor
    func makeObservers(
        on context: ModelContext, published: @escaping @MainActor (Int) -> Void
    ) throws -> [ResultsObserver<Item, Never>] {
        try (0..<observers).map { index in
            let (low, high) = slice(index)
            let observer = try ResultsObserver(
                filterBy: #Predicate<Item> { $0.score >= low && $0.score < high && $0.isActive == true },
                sortBy: [SortDescriptor(\.score)], modelContext: context)
            observer.onChange = { _ in published(index) }
            return observer
        }
    }
}
