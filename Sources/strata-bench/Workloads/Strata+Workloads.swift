import Foundation
import Strata

/// Each workload written the way an app would with Strata's SwiftData-style API.
final class StrataWorkloads {
    let options: Options
    /// The `largeRows`-row store shared by the read-only workloads, built on first use.
    private var largeStore: (path: String, container: ModelContainer)?

    init(options: Options) { self.options = options }

    deinit { removeLargeStore() }

    /// Removes the large store's file (its PostgreSQL schema, with `--store`).
    func removeLargeStore() {
        guard let path = largeStore?.path else { return }
        largeStore = nil
        if let url = options.store {
            RawPostgresConnection.dropSchema(path, at: url)
        } else {
            TemporaryStore.remove(path)
        }
    }

    /// Opens a container at `path` and fills its `Item` table with `rows` rows through raw inserts, so that
    /// setting up doesn't dominate the run.
    func makeContainer(path: String, rows: Int) throws -> ModelContainer {
        let container = try ModelContainer(
            for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        if !options.recordsHistory { (container.store as? SQLiteStore)?.suspendHistoryRecording(true) }
        if rows > 0 {
            let database = try RawDatabase(path: path)
            try database.createSchema()
            try database.insertRows(rows)
        }
        return container
    }

    /// Runs `body` with a fresh context on a fresh store holding `rows` rows, then removes the store.
    private func withContext(rows: Int, _ body: (ModelContext) throws -> Sample) throws -> Sample {
        if let url = options.store { return try withPostgresContext(url: url, rows: rows, body) }
        let path = TemporaryStore.makePath("strata")
        defer { TemporaryStore.remove(path) }
        let container = try makeContainer(path: path, rows: rows)
        return try body(ModelContext(container))
    }

    /// A fresh context on the shared large store.
    func largeContext() throws -> ModelContext {
        if let largeStore { return ModelContext(largeStore.container) }
        if let url = options.store {
            let schema = RawPostgresConnection.makeSchemaName("strata_large")
            largeStore = (schema, try makePostgresContainer(url: url, schema: schema, rows: options.largeRows))
            return ModelContext(largeStore!.container)
        }
        let path = TemporaryStore.makePath("strata-large")
        let container = try makeContainer(path: path, rows: options.largeRows)
        largeStore = (path, container)
        return ModelContext(container)
    }

    // MARK: - Workloads

    func insert() throws -> Sample {
        try withContext(rows: 0) { context in
            Sample(
                milliseconds: try Harness.time {
                    for index in 0..<options.rows { context.insert(Item(ItemRow.make(index))) }
                    try context.save()
                })
        }
    }

    func fetchAll() throws -> Sample {
        try withContext(rows: options.rows) { context in
            try Harness.measure(rows: options.rows) {
                let items = try context.fetch(FetchDescriptor<Item>())
                consume(items.reduce(0) { $0 &+ $1.checksum })
            }
        }
    }

    func sortedLimit() throws -> Sample {
        try sortedLimit(in: largeContext())
    }

    /// The timed query of workloads 3 and 10a.
    func sortedLimit(in context: ModelContext) throws -> Sample {
        let threshold = Query.scoreThreshold
        return try Harness.measure(rows: Query.limit) {
            var descriptor = FetchDescriptor<Item>(
                predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
            descriptor.fetchLimit = Query.limit
            consume(try context.fetch(descriptor))
        }
    }

    func update() throws -> Sample {
        try withContext(rows: options.rows) { context in
            let items = try context.fetch(FetchDescriptor<Item>())
            return Sample(
                milliseconds: try Harness.time {
                    for index in stride(from: 0, to: items.count, by: 10) { items[index].count += 1 }
                    try context.save()
                })
        }
    }

    func deleteHalf() throws -> Sample {
        try withContext(rows: options.rows) { context in
            let half = options.rows / 2
            return Sample(
                milliseconds: try Harness.time {
                    try context.delete(model: Item.self, where: #Predicate { $0.id < half })
                    try context.save()
                })
        }
    }

    func count() throws -> Sample {
        try count(in: largeContext())
    }

    /// The timed count of workloads 6 and 10b.
    func count(in context: ModelContext) throws -> Sample {
        let below = Query.countBelow
        return Sample(
            milliseconds: try Harness.time {
                consume(
                    try context.fetchCount(
                        FetchDescriptor<Item>(predicate: #Predicate { $0.flagged == true && $0.count < below })))
            })
    }

    func enumerate() throws -> Sample {
        let context = try largeContext()
        return try Harness.timeWithMemory(rows: options.largeRows) {
            var checksum = 0
            try context.enumerate(FetchDescriptor<Item>(), batchSize: Query.enumerateBatch) { checksum &+= $0.checksum }
            consume(checksum)
        }
    }
}
