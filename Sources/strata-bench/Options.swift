/// Command-line options: `strata-bench [--quick] [--json]`.
struct Options {
    /// Two rounds and sizes divided by ten: a smoke check that finishes quickly even in a debug build.
    var quick = false
    /// Print the results as JSON instead of a table.
    var json = false
    /// Run only the workload with this number (for profiling, e.g. under callgrind).
    var only: Int?
    /// Whether Strata's stores record persistent history (always, as in SwiftData; `--no-history` measures its cost).
    var recordsHistory = true

    /// Rows for the 100,000-row workloads.
    var rows: Int { quick ? 10_000 : 100_000 }
    /// Rows for the 1,000,000-row workloads.
    var largeRows: Int { quick ? 100_000 : 1_000_000 }
    /// Rounds per workload, each running raw SQLite then Strata.
    var rounds: Int { quick ? 2 : 5 }

    static let usage = "usage: strata-bench [--quick] [--json] [--no-history] [--only <workload number>]"

    /// Parses arguments (without the program name); `nil` means print `usage`.
    init?(arguments: [String]) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": quick = true
            case "--json": json = true
            case "--no-history": recordsHistory = false
            case "--only":
                guard let number = remaining.popFirst().flatMap({ Int($0) }) else { return nil }
                only = number
            default: return nil
            }
        }
    }
}
