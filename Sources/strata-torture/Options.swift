import Foundation

/// A subcommand and its `--name value` options.
struct Options {
    let command: String
    private let values: [String: String]

    static let usage = """
        usage: strata-torture <command> [options]
          crash        [--kills 200] [--saves 1000] [--seed S]   SIGKILL a writer at random saves; check the store each time
          powercut     [--copies 100] [--saves 1000] [--seed S]  copy store + WAL at random moments of running writers
          concurrency  [--processes 4] [--seconds 30]            read-modify-write increments from processes x 2 contexts
          fuzz-format  [--seconds 60] [--seed S] [--corpus DIR]  mutate format predicates: no crash, hang or runaway memory
          enumerate    [--rows 1000000]                          peak memory of enumerate over many rows
        internal: writer, concurrency-worker, live-writer
        """

    init?(arguments: [String]) {
        guard let command = arguments.first else { return nil }
        self.command = command
        var values: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else { return nil }
            values[String(name.dropFirst(2))] = value
        }
        self.values = values
    }

    func string(_ name: String) throws -> String {
        guard let value = values[name] else { throw TortureError("missing --\(name)\n\(Self.usage)") }
        return value
    }

    func int(_ name: String, default fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value >= 0 else { throw TortureError("--\(name) takes a whole number, not \(text)") }
        return value
    }

    func double(_ name: String, default fallback: Double) throws -> Double {
        guard let text = values[name] else { return fallback }
        guard let value = Double(text), value >= 0 else { throw TortureError("--\(name) takes a number of seconds, not \(text)") }
        return value
    }

    /// `--seed`, or one from the clock (printed, so a failure can be replayed).
    func seed() throws -> UInt64 {
        if let text = values["seed"] {
            guard let seed = UInt64(text) else { throw TortureError("--seed takes a whole number, not \(text)") }
            return seed
        }
        let seed = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_007
        report("seed \(seed)")
        return seed
    }
}
