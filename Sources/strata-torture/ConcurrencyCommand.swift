import Foundation
import Strata

/// `concurrency`: processes × (a main-actor context + a `ModelActor`) increment one counter by read-modify-write
/// under the `.error` merge policy, retrying on conflict, for a bounded time. The counter must end at exactly the
/// number of successful increments, no error but a merge conflict may reach the caller, and every process's
/// `ResultsObserver` must converge to the final value.
@MainActor
struct ConcurrencyCommand {
    let processes: Int
    let seconds: Double

    func run() throws -> Bool {
        let scratch = try ScratchDirectory("concurrency")
        defer { scratch.remove() }
        let store = scratch.file("counter.store")
        do {
            let context = ModelContext(
                try ModelContainer(
                    for: Counter.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store))))
            context.insert(Counter(name: "hits"))
            try context.save()
        }
        var children: [(Process, Pipe)] = []
        for worker in 0..<processes {
            let pipe = Pipe()
            let child = try ChildProcess.start(
                [
                    "concurrency-worker", "--store", store, "--dir", scratch.path, "--worker", "\(worker)",
                    "--workers", "\(processes)", "--seconds", "\(seconds)",
                ], output: pipe.fileHandleForWriting)
            children.append((child, pipe))
        }
        var increments = 0, conflicts = 0, errors = 0, converged = 0
        for (worker, (child, pipe)) in children.enumerated() {
            child.waitUntilExit()
            try pipe.fileHandleForWriting.close()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let fields = Self.fields(output)
            increments += fields["increments"] ?? 0
            conflicts += fields["conflicts"] ?? 0
            errors += fields["errors"] ?? 1
            converged += fields["converged"] ?? 0
            if fields["errors"] != 0 || fields["converged"] != 1 || child.terminationStatus != 0 {
                report(
                    "worker \(worker) (exit \(child.terminationStatus)): \(output.trimmingCharacters(in: .whitespacesAndNewlines))"
                )
            }
        }
        let context = ModelContext(
            try ModelContainer(for: Counter.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: store))))
        let final = try context.fetch(FetchDescriptor<Counter>()).first?.value ?? -1
        let lost = increments - final
        report(
            "concurrency: \(processes) processes x 2 contexts for \(seconds) s: \(increments) increments, counter \(final),"
                + " \(lost) lost, \(conflicts) conflicts retried, \(errors) other errors, \(converged)/\(processes) observers converged"
        )
        return lost == 0 && errors == 0 && converged == processes
    }

    /// `key=value` integers of a worker's report line.
    private static func fields(_ output: String) -> [String: Int] {
        var fields: [String: Int] = [:]
        for pair in output.split(whereSeparator: \.isWhitespace) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let value = Int(parts[1]) { fields[String(parts[0])] = value }
        }
        return fields
    }
}
