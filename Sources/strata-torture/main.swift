import CommandLineSupport
import Foundation

// strata-torture <command>: long-running reliability checks of Strata (see RELIABILITY.md). Exits 1 on a finding.
let options = Options.tool.parse(Options.init(arguments:))

do {
    let passed: Bool
    switch options.command {
    case "crash":
        passed = try CrashCommand(
            kills: options.int("kills", default: 200), saves: options.int("saves", default: 1_000),
            seed: options.seed()
        ).run()
    case "writer":
        try Writer(
            storePath: options.string("store"), logPath: options.string("log"),
            seed: UInt64(options.int("seed", default: 0)), saves: options.int("saves", default: 1_000)
        ).run()
        passed = true
    case "powercut":
        passed = try PowercutCommand(
            copies: options.int("copies", default: 100), seed: options.seed(),
            savesPerWriter: options.int("saves", default: 1_000)
        ).run()
    case "concurrency":
        passed = try ConcurrencyCommand(
            processes: options.int("processes", default: 4), seconds: options.double("seconds", default: 30)
        ).run()
    case "create":
        passed = try CreateCommand(
            processes: options.int("processes", default: 4), races: options.int("races", default: 200),
            postgresURL: options.optionalPostgresURL()
        ).run()
    case "create-worker":
        try CreateWorker(worker: options.int("worker", default: 0), postgresURL: options.optionalPostgresURL()).run()
        passed = true
    case "concurrency-worker":
        try await ConcurrencyWorker(
            storePath: options.string("store"), directory: options.string("dir"),
            worker: options.int("worker", default: 0),
            workers: options.int("workers", default: 4), seconds: options.double("seconds", default: 30)
        ).run()
        passed = true
    case "live-writer":
        try LiveWriter(
            storePath: options.string("store"), title: options.string("title"),
            priority: options.int("priority", default: 0), author: options.string("author")
        ).run()
        passed = true
    case "fuzz-format":
        passed = try FuzzFormatCommand(
            seconds: options.double("seconds", default: 60), seed: options.seed(),
            corpusDirectory: options.optionalString("corpus")
        ).run()
    case "load":
        passed = try LoadCommand(
            url: options.postgresURL(), processes: options.int("processes", default: 4),
            contexts: options.int("contexts", default: 2), seconds: options.double("seconds", default: 20)
        ).run()
    case "load-worker":
        try await LoadWorker(
            url: options.postgresURL(), databaseSchema: options.string("schema"),
            worker: options.int("worker", default: 0),
            contexts: options.int("contexts", default: 2), seconds: options.double("seconds", default: 20),
            output: options.string("output")
        ).run()
        passed = true
    case "sync":
        passed = try SyncCommand(
            url: options.postgresURL(), devices: options.int("devices", default: 3),
            seconds: options.double("seconds", default: 30), seed: options.seed()
        ).run()
    case "sync-worker":
        try await SyncWorker(
            url: options.postgresURL(), databaseSchema: options.string("schema"),
            storePath: options.string("device"), statePath: options.string("state"),
            seed: options.seed(), rounds: options.int("rounds", default: 6),
            final: options.optionalString("final")
        ).run()
        passed = true
    case "enumerate":
        passed = try EnumerateCommand(rows: options.int("rows", default: 1_000_000)).run()
    default:
        // Options accepts only the commands above.
        Options.tool.exitWithUsageError(CommandLineError.unknownCommand(options.command, commands: []))
    }
    exit(passed ? 0 : 1)
} catch let error as CommandLineError {
    Options.tool.exitWithUsageError(error)
} catch {
    FileHandle.standardError.write(Data("strata-torture: \(error)\n".utf8))
    exit(2)
}
