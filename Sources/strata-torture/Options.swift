import CommandLineSupport
import Foundation

/// A subcommand and its options, each subcommand accepting only its own (`--name value` or `--name=value`).
struct Options {
    let command: String
    private let arguments: CommandLineArguments

    static let tool = CommandLineTool(
        name: "strata-torture",
        usage: """
            usage: strata-torture <command> [options]
              crash        [--kills 200] [--saves 1000] [--seed S]   SIGKILL a writer at random saves; check the store each time
              powercut     [--copies 100] [--saves 1000] [--seed S]  copy store + WAL at random moments of running writers
              concurrency  [--processes 4] [--seconds 30]            read-modify-write increments from processes x 2 contexts
              create       [--processes 4] [--races 200] [--store postgresql://…]
                                                                     processes opening one new store at once, races times
              fuzz-format  [--seconds 60] [--seed S] [--corpus DIR]  mutate format predicates: no crash, hang or runaway memory
              enumerate    [--rows 1000000]                          peak memory of enumerate over many rows
              load         --store postgresql://… [--processes 4] [--contexts 2] [--seconds 20]
                                                                     app processes x contexts reading, saving and observing
              sync         --store postgresql://… [--devices 3] [--seconds 30] [--seed S]
                                                                     devices syncing with one hub, killed and cut off
              --help, --version
            internal: writer, concurrency-worker, live-writer, load-worker, create-worker, sync-worker
            """)

    /// The options each subcommand accepts.
    private static let commandOptions: [String: Set<String>] = [
        "crash": ["--kills", "--saves", "--seed"],
        "powercut": ["--copies", "--saves", "--seed"],
        "concurrency": ["--processes", "--seconds"],
        "create": ["--processes", "--races", "--store"],
        "create-worker": ["--worker", "--store"],
        "fuzz-format": ["--seconds", "--seed", "--corpus"],
        "enumerate": ["--rows"],
        "load": ["--store", "--processes", "--contexts", "--seconds"],
        "load-worker": ["--store", "--schema", "--worker", "--contexts", "--seconds", "--output"],
        "writer": ["--store", "--log", "--seed", "--saves"],
        "concurrency-worker": ["--store", "--dir", "--worker", "--workers", "--seconds"],
        "live-writer": ["--store", "--title", "--priority", "--author"],
        "sync": ["--store", "--devices", "--seconds", "--seed"],
        "sync-worker": ["--store", "--schema", "--device", "--state", "--seed", "--rounds", "--final"],
    ]

    /// Parses the arguments after the program name.
    ///
    /// - Throws: `CommandLineError` for a missing or unknown subcommand or an option the subcommand doesn't take.
    init(arguments: [String]) throws(CommandLineError) {
        let commands = ["crash", "powercut", "concurrency", "create", "fuzz-format", "enumerate", "load", "sync"]
        guard let command = arguments.first else { throw .missingCommand(commands: commands) }
        guard let options = Self.commandOptions[command] else { throw .unknownCommand(command, commands: commands) }
        self.command = command
        self.arguments = try CommandLineArguments(Array(arguments.dropFirst()), options: options)
    }

    /// The value of the required `--name`.
    func string(_ name: String) throws(CommandLineError) -> String {
        try arguments.required("--\(name)")
    }

    /// The value of `--name`, if given.
    func optionalString(_ name: String) -> String? {
        arguments["--\(name)"]
    }

    func int(_ name: String, default fallback: Int) throws(CommandLineError) -> Int {
        try arguments.integer("--\(name)", default: fallback)
    }

    func double(_ name: String, default fallback: Double) throws(CommandLineError) -> Double {
        try arguments.number("--\(name)", default: fallback)
    }

    /// The PostgreSQL server of `--store`, if given, which must be a `postgresql://` URL.
    func optionalPostgresURL() throws(CommandLineError) -> URL? {
        arguments["--store"] == nil ? nil : try postgresURL()
    }

    /// The PostgreSQL server of `--store`, which must be a `postgresql://` URL.
    func postgresURL() throws(CommandLineError) -> URL {
        let text = try string("store")
        guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"), let url = URL(string: text) else {
            throw .invalidValue(option: "--store", value: text, expected: "a postgresql:// URL")
        }
        return url
    }

    /// `--seed`, or one from the clock (printed, so a failure can be replayed).
    func seed() throws(CommandLineError) -> UInt64 {
        if let text = arguments["--seed"] {
            guard let seed = UInt64(text) else {
                throw .invalidValue(option: "--seed", value: text, expected: "a whole number")
            }
            return seed
        }
        let seed = UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000_007
        report("seed \(seed)")
        return seed
    }
}
