import Foundation

/// What every Strata tool does the same way: `--help` and `--version` on standard output with status 0, usage errors
/// on standard error with status 2.
package struct CommandLineTool: Sendable {
    /// The version every tool prints for `--version`: the Strata release it was built from.
    package static let version = "0.1.0"

    /// The program name the messages start with.
    package let name: String
    /// The usage text `--help` prints and usage errors end with.
    package let usage: String

    /// A tool called `name` whose `--help` prints `usage`.
    package init(name: String, usage: String) {
        self.name = name
        self.usage = usage
    }

    /// Answers `--help` / `-h` and `--version` when they are the only argument, exiting with status 0.
    package func handleHelpAndVersion(_ arguments: [String]) {
        switch arguments {
        case ["--help"], ["-h"], ["help"]:
            print(usage)
            exit(0)
        case ["--version"]:
            print("\(name) \(Self.version)")
            exit(0)
        default:
            return
        }
    }

    /// Starts the tool: answers `--help` and `--version`, then parses `arguments` with `parse`; a usage error is
    /// printed with the usage and exits with status 2, so what returns is always a valid command line.
    package func parse<Parsed>(
        _ parse: ([String]) throws -> Parsed, arguments: [String] = Array(CommandLine.arguments.dropFirst())
    ) -> Parsed {
        handleHelpAndVersion(arguments)
        do {
            return try parse(arguments)
        } catch {
            exitWithUsageError(error)
        }
    }

    /// Prints `error` and the usage to standard error and exits with status 2.
    package func exitWithUsageError(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("\(name): \(error)\n\(usage)\n".utf8))
        exit(2)
    }
}
