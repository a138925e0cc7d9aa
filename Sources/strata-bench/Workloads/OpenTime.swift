import CSQLite
import Foundation
import Strata

/// `--open`: opening an existing store and running one indexed query (workload 3's), at store sizes from 10,000 to
/// 10,000,000 rows, against `sqlite3_open_v2` and the same query. What an app pays at every launch for each
/// container: the cost must not grow with the file.
enum OpenTimeRun {
    /// The store sizes of the curve (`--quick`: the first two).
    static let sizes = [10_000, 1_000_000, 10_000_000]

    @MainActor
    static func run(_ options: Options) async throws -> [WorkloadResult] {
        var results: [WorkloadResult] = []
        for size in options.quick ? Array(sizes.prefix(2)) : sizes {
            let path = TemporaryStore.makePath("open-\(size)")
            defer { TemporaryStore.remove(path) }
            if !options.json {
                FileHandle.standardError.write(Data("building a \(size.formatted())-row store…\n".utf8))
            }
            try makeStore(at: path, rows: size)
            let workload = Workload(
                name: "open a \(size.formatted())-row store + predicate + sort + limit 50",
                raw: { try rawOpenAndQuery(path, floor: RawWorkloads(options: options)) },
                strata: { try strataOpenAndQuery(path) },
                family: Family(name: "open", size: size, perRow: false))
            if !options.json { FileHandle.standardError.write(Data("running \(workload.name)…\n".utf8)) }
            results.append(try await Harness.run(workload, rounds: options.quick ? 5 : 30))
        }
        return results
    }

    /// A closed store of `rows` items: created by Strata (so its metadata is Strata's), filled through raw inserts
    /// in one transaction, then closed so its write-ahead log is checkpointed and gone, as after an app quits.
    private static func makeStore(at path: String, rows: Int) throws {
        do {
            _ = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        }
        let database = try RawDatabase(path: path)
        try database.createSchema()
        try database.insertRows(rows)
    }

    /// The floor: `sqlite3_open_v2` with Strata's flags and pragmas, workload 3's statement, close.
    private static func rawOpenAndQuery(_ path: String, floor: RawWorkloads) throws -> Sample {
        Sample(
            milliseconds: try Harness.time {
                let database = try RawDatabase(path: path)
                let statement = try floor.sortedLimitStatement(database, withKey: false)
                var rows: [ItemRow] = []
                while try statement.step() { rows.append(statement.row()) }
                consume(rows)
            })
    }

    /// A container opened on the file, a context, workload 3's fetch, all released.
    private static func strataOpenAndQuery(_ path: String) throws -> Sample {
        Sample(
            milliseconds: try Harness.time {
                let container = try ModelContainer(
                    for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
                let threshold = Query.scoreThreshold
                var descriptor = FetchDescriptor<Item>(
                    predicate: #Predicate { $0.score > threshold }, sortBy: [SortDescriptor(\.score)])
                descriptor.fetchLimit = Query.limit
                consume(try ModelContext(container).fetch(descriptor))
            })
    }
}
