import Foundation
import Strata
import Testing

@testable import BookshelfCore

@Suite("bookshelf --help says where the store is, and every command it lists works as written")
struct UsageTests {
    /// Each command line `--help` shows, with a run of it that uses every option it names.
    private let commands: [(line: String, run: [String])] = [
        (
            "books add --title T --author A --publisher P [--summary S] [--json]",
            [
                "books", "add", "--title", "Dune", "--author", "Frank Herbert", "--publisher", "Chilton", "--summary",
                "S",
            ]
        ),
        (
            "tasks add --title T [--category C] [--priority N] [--due YYYY-MM-DD] [--json]",
            ["tasks", "add", "--title", "taxes", "--category", "home", "--priority", "3", "--due", "2030-04-15"]
        ),
        (
            "journal add --title T [--content C] [--date YYYY-MM-DD] [--json]",
            ["journal", "add", "--title", "Hi", "--content", "text", "--date", "2030-01-02"]
        ),
        (
            "books|tasks|journal list [--where 'FORMAT'] [--sort title|-title] [--json]",
            ["books", "list", "--where", "title CONTAINS[c] \"dune\"", "--sort", "-title"]
        ),
        ("store migrate [--dry-run]", ["store", "migrate", "--dry-run"]),
        ("store migrate [--dry-run]", ["store", "migrate"]),
    ]
    /// `sync`'s line in `--help` and its options: `SyncCommandTests` runs it with each, against a PostgreSQL hub
    /// (it takes no store option, so it is not run here on a store file and in memory).
    private let sync = (
        line: "sync [--hub URL] [--hub-schema NAME] [--shelves DIR]", options: ["--hub", "--hub-schema", "--shelves"]
    )

    @Test("--help names the default store's path and the options that choose another store")
    @MainActor
    func storeLocations() async {
        let help = await CapturedRun.run(["--help"])
        #expect(help.status == 0 && help.notes.isEmpty)
        #expect(help.output.hasPrefix("usage: bookshelf"))
        let defaultPath = ModelConfiguration("bookshelf").url.path
        #expect(help.output.contains("the default store: \(defaultPath)"))
        for option in ["--store PATH", "--store postgresql://", "--in-memory", "XDG_DATA_HOME"] {
            #expect(help.output.contains(option), "\(option)")
        }
        for arguments in [["-h"], ["books", "list", "--help"], ["--in-memory", "tasks", "add", "--help"]] {
            #expect(await CapturedRun.run(arguments).output == help.output, "\(arguments)")
        }
    }

    @Test("Every command --help lists runs as written, on a store file and in memory, with and without --json")
    @MainActor
    func everyCommandWorks() async throws {
        let help = await CapturedRun.run(["--help"]).output
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        for (line, arguments) in commands {
            #expect(help.contains(line), "--help lacks '\(line)'")
            let jsonVariants = line.contains("[--json]") ? [arguments, arguments + ["--json"]] : [arguments]
            for variant in jsonVariants {
                for store in [["--store", path], ["--in-memory"]] {
                    let run = await CapturedRun.run(store + variant)
                    #expect(run.status == 0, "\(store + variant): \(run.notes)")
                    #expect(!run.output.isEmpty, "\(store + variant) printed nothing")
                }
            }
        }
        for kind in ["tasks", "journal"] {
            #expect(await CapturedRun.run(["--store", path, kind, "list", "--sort", "title"]).status == 0)
        }
        #expect(await CapturedRun.run(["--version"]).output.wholeMatch(of: /bookshelf \d+\.\d+\.\d+/) != nil)
    }

    @Test("Every option --help names is one a command above used")
    @MainActor
    func everyOptionIsExercised() async {
        let help = await CapturedRun.run(["--help"]).output
        let named = Set(help.matches(of: /--[a-z-]+/).map { String($0.output) })
        #expect(help.contains(sync.line))
        let used = Set(commands.flatMap(\.run).filter { $0.hasPrefix("--") } + ["--json", "--sort"] + sync.options)
        let storeOptions: Set = ["--store", "--in-memory", "--help", "--version"]
        #expect(named.subtracting(used).subtracting(storeOptions).isEmpty, "\(named.subtracting(used))")
    }
}
