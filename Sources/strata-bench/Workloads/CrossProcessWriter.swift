import Foundation
import Strata
import StrataPostgres

/// The writer of workload 17: this executable run again with `STRATA_BENCH_WRITER_STORE` (an SQLite path or a
/// PostgreSQL URL; `STRATA_BENCH_WRITER_SCHEMA` names the PostgreSQL schema). It reads item ids from standard
/// input, one a line; for each it adds 1 to that item's `weight`, saves, and answers the `CLOCK_MONOTONIC` time
/// (nanoseconds) read just before `save()`.
enum CrossProcessWriter {
    /// Where the writer saves.
    enum Store {
        case sqlite(String)
        case postgres(URL, schema: String)
    }

    /// Nanoseconds of `CLOCK_MONOTONIC`, the same clock in every process.
    static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs as the writer (and exits) when this process was started as one.
    static func runIfRequested() {
        let environment = ProcessInfo.processInfo.environment
        guard let location = environment["STRATA_BENCH_WRITER_STORE"] else { return }
        do {
            let container: ModelContainer
            if let schema = environment["STRATA_BENCH_WRITER_SCHEMA"], let url = URL(string: location) {
                container = try ModelContainer(
                    for: Schema([Item.self]), migrationPlan: nil,
                    configurations: [PostgresConfiguration(url: url, databaseSchema: schema)])
            } else {
                container = try ModelContainer(
                    for: Item.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: location)))
            }
            let context = ModelContext(container)
            while let line = readLine(), let target = Int(line) {
                guard
                    let item = try context.fetch(FetchDescriptor<Item>(predicate: #Predicate { $0.id == target })).first
                else {
                    throw RawSQLiteError(description: "cross-process writer: no item \(target)")
                }
                item.weight += 1
                let start = now()
                try context.save()
                FileHandle.standardOutput.write(Data("\(start)\n".utf8))
            }
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("strata-bench writer: \(error)\n".utf8))
            exit(1)
        }
    }

    /// Drops a PostgreSQL schema the workload made.
    static func dropSchema(_ schema: String, at url: URL) {
        guard let connection = try? PostgresConnection(conninfo: url.absoluteString) else { return }
        try? connection.execute("DROP SCHEMA IF EXISTS \"\(schema)\" CASCADE")
    }

    /// A running writer process, ended when released.
    final class Connection {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffered = Data()

        init(store: Store) throws {
            process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            var environment = ProcessInfo.processInfo.environment
            switch store {
            case .sqlite(let path):
                environment["STRATA_BENCH_WRITER_STORE"] = path
            case .postgres(let url, let schema):
                environment["STRATA_BENCH_WRITER_STORE"] = url.absoluteString
                environment["STRATA_BENCH_WRITER_SCHEMA"] = schema
            }
            process.environment = environment
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        deinit {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        /// Asks the writer to change the item with `id`.
        func send(_ id: Int) throws {
            try input.fileHandleForWriting.write(contentsOf: Data("\(id)\n".utf8))
        }

        /// Waits for the writer's next answer: when its save started.
        func reply() throws -> UInt64 {
            while true {
                if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffered[..<newline], as: UTF8.self)
                    buffered.removeSubrange(...newline)
                    guard let value = UInt64(line) else {
                        throw RawSQLiteError(description: "cross-process writer said \(line)")
                    }
                    return value
                }
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw RawSQLiteError(description: "cross-process writer exited") }
                buffered.append(chunk)
            }
        }
    }
}
