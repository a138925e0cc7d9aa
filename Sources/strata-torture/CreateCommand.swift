import Foundation
import Strata
import StrataPostgres

/// `create`: `processes` processes open a container at the same moment on a store that doesn't exist yet, `races`
/// times, each time on a fresh file (or, with `--store postgresql://…`, a fresh PostgreSQL schema). Every open must
/// succeed, every process must find the one store the race created (one identifier), and the store must then hold
/// the row each process saved.
struct CreateCommand {
    let processes: Int
    let races: Int
    let postgresURL: URL?

    func run() throws -> Bool {
        let scratch = try ScratchDirectory("create")
        defer { scratch.remove() }
        // The workers live for the whole run and open a store as soon as they read its name, so the opens of one
        // race start within a pipe write of each other rather than a process start apart.
        let workers = try (0..<processes).map { worker in
            try CreateWorkerHandle(worker: worker, postgresURL: postgresURL)
        }
        defer { for worker in workers { worker.finish() } }
        let started = Date()
        var failures = 0
        var schemas: [String] = []
        defer { schemas.forEach(dropSchema) }
        for race in 0..<races {
            let store: String
            if postgresURL != nil {
                store = "strata_create_\(UUID().uuidString.prefix(8).lowercased())_\(race)"
                schemas.append(store)
            } else {
                store = scratch.file("race-\(race).store")
            }
            for worker in workers { worker.send(store) }
            let outcomes = workers.map { $0.receive() }
            var problems = outcomes.enumerated().compactMap { worker, outcome in
                outcome.hasPrefix("ok ") ? nil : "worker \(worker): \(outcome)"
            }
            let identifiers = Set(outcomes.filter { $0.hasPrefix("ok ") })
            if identifiers.count > 1 { problems.append("the workers found \(identifiers.count) different stores") }
            let rows = try count(in: store)
            if rows != processes { problems.append("the store holds \(rows) rows, not \(processes)") }
            if !problems.isEmpty {
                failures += 1
                report("race \(race): " + problems.joined(separator: "; "))
            }
        }
        let kind = postgresURL == nil ? "SQLite files" : "PostgreSQL schemas"
        let seconds = String(format: "%.1f", Date().timeIntervalSince(started))
        report(
            "create: \(failures) failures in \(races) races of \(processes) processes opening new \(kind) at once (\(seconds) s)"
        )
        return failures == 0
    }

    /// How many rows the race's store holds (each worker saved one).
    private func count(in store: String) throws -> Int {
        let container = try CreateWorker.container(store: store, postgresURL: postgresURL)
        return try ModelContext(container).fetchCount(FetchDescriptor<Counter>())
    }

    private func dropSchema(_ name: String) {
        guard let postgresURL, let connection = try? PostgresConnection(conninfo: postgresURL.absoluteString) else {
            return
        }
        try? connection.execute("DROP SCHEMA IF EXISTS \(PostgreSQLDialect().quote(identifier: name)) CASCADE")
    }
}

/// A `create-worker` child: store names go down its input, one outcome line per store comes back.
private final class CreateWorkerHandle {
    private let process: Process
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(worker: Int, postgresURL: URL?) throws {
        var arguments = ["create-worker", "--worker", "\(worker)"]
        if let postgresURL { arguments += ["--store", postgresURL.absoluteString] }
        process = try ChildProcess.start(arguments, input: input, output: output.fileHandleForWriting)
        // Only the child writes its output now, so the pipe ends when it exits.
        try output.fileHandleForWriting.close()
    }

    func send(_ store: String) {
        input.fileHandleForWriting.write(Data((store + "\n").utf8))
    }

    /// The worker's next line; a worker that exited answers with how it exited.
    func receive() -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { return "exited (status \(process.isRunning ? -1 : process.terminationStatus))" }
            buffer.append(more)
        }
    }

    /// Closes the worker's input, so it exits, and waits for it.
    func finish() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
