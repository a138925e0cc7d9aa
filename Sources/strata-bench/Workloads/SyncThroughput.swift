import Foundation
import Strata
import StrataPostgres
import StrataSync

/// A row as a synced app stores it: a sync identity beside a few attributes.
@Model final class SyncedItem {
    @Attribute(.unique, .preserveValueOnDeletion) var id: UUID
    var name: String
    var score: Int
    var note: String?

    init(index: Int) {
        id = UUID()
        name = "item \(index)"
        score = index % 1_000
        note = index.isMultiple(of: 3) ? nil : "note \(index)"
    }
}

/// `--sync --store postgresql://…`: StrataSync's throughput and latency. For 10,000 and 100,000 changes (1,000 with
/// `--quick`): one device sends new rows, another fetches them (its first fetch), then the first changes every row
/// and sends, and the second fetches the changes from the hub's history; beside it, the floor: the same number of
/// rows written to the server with `COPY`. Then two devices syncing by themselves: from a one-row save on one to the
/// other's change observer firing, over the hub's `NOTIFY`.
enum SyncRun {
    struct Measurement {
        var label: String
        var rows: Int
        var milliseconds: Double
        var floorMilliseconds: Double?
    }

    static func run(_ options: Options, url: URL) async throws -> (throughput: [Measurement], latency: [Double]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-bench-sync-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var measurements: [Measurement] = []
        for rows in options.quick ? [1_000] : [10_000, 100_000] {
            let schema = RawPostgresConnection.makeSchemaName("sync")
            let floorSchema = RawPostgresConnection.makeSchemaName("syncfloor")
            defer {
                RawPostgresConnection.dropSchema(schema, at: url)
                RawPostgresConnection.dropSchema(floorSchema, at: url)
            }
            let hub = PostgresConfiguration(url: url, databaseSchema: schema)
            let sender = try device(directory, "sender-\(rows)")
            let receiver = try device(directory, "receiver-\(rows)")
            let sending = try engine(sender, hub: hub)
            let receiving = try engine(receiver, hub: hub)
            // Each opens the hub first (its first fetch), so the timings below hold no connecting.
            try await sending.fetchChanges()
            try await receiving.fetchChanges()
            let context = ModelContext(sender)
            for index in 0..<rows { context.insert(SyncedItem(index: index)) }
            try context.save()

            _ = try ModelContainer(
                for: Schema([Item.self]), migrationPlan: nil,
                configurations: [PostgresConfiguration(url: url, databaseSchema: floorSchema)])
            let floor = try Harness.time { try RawPostgresConnection(url: url, schema: floorSchema).copyRows(rows) }
            /// Times a send (`sends`) or a fetch of the two devices as one row of the table.
            func measure(_ label: String, sends: Bool, floor: Double?) async throws {
                let milliseconds = try await time {
                    if sends { try await sending.sendChanges() } else { try await receiving.fetchChanges() }
                }
                measurements.append(
                    Measurement(label: label, rows: rows, milliseconds: milliseconds, floorMilliseconds: floor))
            }
            try await measure("send \(rows.formatted()) new rows", sends: true, floor: floor)
            try await measure("fetch them on another device (first fetch)", sends: false, floor: floor)
            for item in try context.fetch(FetchDescriptor<SyncedItem>()) { item.score += 1 }
            try context.save()
            try await measure("send a change to each", sends: true, floor: nil)
            try await measure("fetch the changes (from the hub's history)", sends: false, floor: nil)
        }
        return (measurements, try await latency(directory, url: url, saves: options.quick ? 5 : 30))
    }

    /// Milliseconds from a one-row save on one automatically syncing device to the other's change observer.
    private static func latency(_ directory: URL, url: URL, saves: Int) async throws -> [Double] {
        let schema = RawPostgresConnection.makeSchemaName("synclatency")
        defer { RawPostgresConnection.dropSchema(schema, at: url) }
        let hub = PostgresConfiguration(url: url, databaseSchema: schema)
        let writer = try device(directory, "writer")
        let reader = try device(directory, "reader")
        func automatic(_ container: ModelContainer) throws -> SyncEngine {
            var configuration = SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil)
            configuration.pollingInterval = .seconds(600)
            return try SyncEngine(configuration)
        }
        let writing = try automatic(writer)
        let reading = try automatic(reader)
        defer {
            Task {
                await writing.cancelOperations()
                await reading.cancelOperations()
            }
        }
        while await MainActor.run(body: { reading.status.lastFetchDate == nil || writing.status.lastFetchDate == nil })
        {
            try await Task.sleep(for: .milliseconds(20))
        }
        let arrivals = AsyncStream<Void>.makeStream()
        let observation = reader.observeChanges { _ in arrivals.continuation.yield() }
        defer { observation.cancel() }
        var iterator = arrivals.stream.makeAsyncIterator()
        let context = ModelContext(writer)
        var samples: [Double] = []
        for index in 0..<saves {
            context.insert(SyncedItem(index: index))
            let start = ContinuousClock.now
            try context.save()
            _ = await iterator.next()
            samples.append(Harness.milliseconds(ContinuousClock.now - start))
            try await Task.sleep(for: .milliseconds(50))
        }
        return samples
    }

    private static func device(_ directory: URL, _ name: String) throws -> ModelContainer {
        try ModelContainer(
            for: SyncedItem.self, configurations: ModelConfiguration(url: directory.appendingPathComponent(name)))
    }

    private static func engine(_ container: ModelContainer, hub: PostgresConfiguration) throws -> SyncEngine {
        var configuration = SyncEngine.Configuration(container: container, hub: hub, stateSerialization: nil)
        configuration.automaticallySync = false
        return try SyncEngine(configuration)
    }

    private static func time(_ body: () async throws -> Void) async rethrows -> Double {
        let start = ContinuousClock.now
        try await body()
        return Harness.milliseconds(ContinuousClock.now - start)
    }

    static func table(_ results: (throughput: [Measurement], latency: [Double])) -> String {
        var lines = [
            "StrataSync throughput (floor: the same number of rows written with COPY)",
            "| step | rows | ms | rows/s | floor ms | ratio |",
            "|---|---:|---:|---:|---:|---:|",
        ]
        for result in results.throughput {
            let perSecond = Int(Double(result.rows) / (result.milliseconds / 1_000))
            let floor = result.floorMilliseconds.map { $0.formatted(.number.precision(.fractionLength(1))) } ?? "–"
            let ratio =
                result.floorMilliseconds.map {
                    (result.milliseconds / $0).formatted(.number.precision(.fractionLength(1))) + "×"
                } ?? "–"
            lines.append(
                "| \(result.label) | \(result.rows.formatted()) | "
                    + "\(result.milliseconds.formatted(.number.precision(.fractionLength(1)))) | "
                    + "\(perSecond.formatted()) | \(floor) | \(ratio) |")
        }
        let sorted = results.latency.sorted()
        if !sorted.isEmpty {
            let median = sorted[sorted.count / 2]
            let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
            lines.append(
                "save on one device → the other's observer, over NOTIFY: median "
                    + "\(median.formatted(.number.precision(.fractionLength(1)))) ms, p99 "
                    + "\(p99.formatted(.number.precision(.fractionLength(1)))) ms over \(sorted.count) saves")
        }
        return lines.joined(separator: "\n")
    }
}
