import CommandLineSupport
import Foundation

/// Command-line options: `strata-bench [--quick] [--json] [--scale] [--open] [--memory] [--heartbeat] [--history] [--sync] [--svg DIR] [--no-history] [--only N] [--store URL] [--compare FILE]`.
struct Options {
    /// Two rounds and sizes divided by ten: a smoke check that finishes quickly even in a debug build.
    var quick = false
    /// Print the results as JSON instead of a table.
    var json = false
    /// Run only the workload with this number (for profiling, e.g. under callgrind).
    var only: Int?
    /// Whether Strata's stores record persistent history (always, as in SwiftData; `--no-history` measures its cost).
    var recordsHistory = true
    /// Run the workload families at each of `scaleSizes` instead of the table's workloads.
    var scale = false
    /// Time opening an existing store + one indexed query at `OpenTimeRun.sizes` instead of the table's workloads.
    var openTime = false
    /// Measure the heap each held model keeps (`HeldMemoryRun`) instead of the table's workloads.
    var memory = false
    /// Measure how late a heartbeat task wakes while many tasks fetch over PostgreSQL (needs `--store`).
    var heartbeat = false
    /// Time history reads and retention deletes at `HistoryScaleRun.sizes` history transactions (needs `--store`).
    var history = false
    /// Measure StrataSync's throughput and latency against a hub on the server (needs `--store`).
    var sync = false
    /// Where `--svg` writes one chart per workload family (a `--scale` run; implies `--scale`).
    var svgDirectory: String?
    /// The table size of a `--scale` step, replacing both `rows` and `largeRows`.
    var size: Int?
    /// The PostgreSQL server (`--store postgresql://…`) workloads 1–7 run on, against a raw libpq floor, instead of
    /// SQLite's table.
    var store: URL?
    /// A previous run's `--json` output: after the run, each workload whose ratio or allocations per row grew by
    /// more than `Comparison.tolerance` is named.
    var comparedRun: String?

    /// Rows for the 100,000-row workloads.
    var rows: Int { size ?? (quick ? 10_000 : 100_000) }
    /// Rows for the 1,000,000-row workloads.
    var largeRows: Int { size ?? (quick ? 100_000 : 1_000_000) }
    /// The relationship workloads' store: `rows` books, ten per author.
    var library: LibraryShape { LibraryShape(authors: rows / 10, booksPerAuthor: 10) }
    /// The cascading delete's store: twice `rows` books, a hundred per author; deleting half the authors
    /// deletes `rows` books.
    var cascadeLibrary: LibraryShape { LibraryShape(authors: rows / 50, booksPerAuthor: 100) }
    /// The many-to-many workload's store: `rows` photos, three of 100 tags each.
    var tagging: TaggingShape { TaggingShape(photos: rows) }
    /// The one-change save in a large to-many: one author with 1,000 books.
    static let largeToMany = LibraryShape(authors: 1, booksPerAuthor: 1_000)
    /// Rounds per workload, each running raw SQLite then Strata.
    var rounds: Int { quick ? 2 : (scale ? 3 : 5) }

    /// The table sizes of `--scale`: every family runs at the first three; count, the indexed query and enumerate
    /// also at the last (`--quick --scale`: the first two only).
    static let scaleSizes = [10_000, 100_000, 1_000_000, 10_000_000]
    /// The sizes this `--scale` run uses.
    var scaleSizesToRun: [Int] { quick ? Array(Self.scaleSizes.prefix(2)) : Self.scaleSizes }

    static let tool = CommandLineTool(
        name: "strata-bench",
        usage: """
            usage: strata-bench [--quick] [--json] [--scale] [--open] [--memory] [--heartbeat] [--history] [--sync] [--svg <directory>] [--no-history] [--only <workload number>]
                                [--store postgresql://…] [--compare <previous --json output>]
                   strata-bench --help | --version
            """)

    /// Parses arguments (without the program name).
    ///
    /// - Throws: `CommandLineError` for an unknown option, a missing or malformed value.
    init(arguments: [String]) throws(CommandLineError) {
        let parsed = try CommandLineArguments(
            arguments, options: ["--svg", "--only", "--store", "--compare"],
            flags: [
                "--quick", "--json", "--no-history", "--scale", "--open", "--memory", "--heartbeat", "--history",
                "--sync",
            ])
        quick = parsed.has("--quick")
        comparedRun = parsed["--compare"]
        json = parsed.has("--json")
        recordsHistory = !parsed.has("--no-history")
        scale = parsed.has("--scale")
        openTime = parsed.has("--open")
        memory = parsed.has("--memory")
        heartbeat = parsed.has("--heartbeat")
        history = parsed.has("--history")
        sync = parsed.has("--sync")
        if let directory = parsed["--svg"] {
            svgDirectory = directory
            scale = true
        }
        if parsed["--only"] != nil {
            only = try parsed.integer("--only", default: 0, minimum: 1)
        }
        if let text = parsed["--store"] {
            guard text.hasPrefix("postgres://") || text.hasPrefix("postgresql://"), let url = URL(string: text) else {
                throw .invalidValue(option: "--store", value: text, expected: "a postgresql:// URL")
            }
            store = url
        }
        if heartbeat && store == nil {
            throw .missingOption("--store postgresql://… (--heartbeat measures fetches over PostgreSQL)")
        }
        if sync && store == nil {
            throw .missingOption("--store postgresql://… (--sync measures StrataSync against a hub on the server)")
        }
        if history && store == nil {
            throw .missingOption("--store postgresql://… (--history measures PostgreSQL's history tables)")
        }
    }

    /// These options at one table size of a `--scale` run.
    func sized(_ size: Int) -> Options {
        var options = self
        options.size = size
        return options
    }
}
