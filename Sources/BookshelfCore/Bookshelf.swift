import CommandLineSupport
import Foundation
import Strata
import StrataState

/// The `bookshelf` command: the seeds' apps (books, tasks, journal, to-dos) as a full-screen terminal app over a
/// Strata store, plus scripting subcommands over the same store.
///
/// ```swift
/// exit(await Bookshelf.main(Array(CommandLine.arguments.dropFirst())))
/// ```
package enum Bookshelf {
    /// Runs `bookshelf` with `arguments` (without the program name): the full-screen app when no subcommand is
    /// given, otherwise the subcommand, whose output goes to standard output.
    ///
    /// - Returns: the exit status: 0 on success, 2 for a usage error (bad option, missing field, bad `--where`),
    ///   1 when the store can't be opened or written. The error is printed to standard error.
    @MainActor
    package static func main(_ arguments: [String]) async -> Int32 {
        var arguments = arguments
        do {
            let location = try StoreLocation.extract(from: &arguments)
            if arguments == ["--help"] || arguments == ["-h"] {
                print(ScriptCommand.usage)
                return 0
            }
            if arguments == ["--version"] {
                print("bookshelf \(CommandLineTool.version)")
                return 0
            }
            if arguments.count >= 2, arguments[0] == "store", arguments[1] == "migrate" {
                print(try MigrateCommand.run(Array(arguments.dropFirst(2)), location: location))
                return 0
            }
            // The whole command line is checked before a store is created or opened.
            let command = arguments.isEmpty ? nil : try ScriptCommand.prepare(arguments)
            let container = try location.openContainer()
            let shelf = Shelf(container: container, author: arguments.isEmpty ? nil : "script")
            if arguments.isEmpty {
                OpenedStore.container = container
                let viewModel = ShelfViewModel(shelf: shelf, storePath: location.displayPath)
                Application.logger = MessageLineLogger(shelf: viewModel)
                try await App(shelf: viewModel).run()
            } else if let command {
                let output = try command(shelf)
                if !output.isEmpty { print(output) }
            }
            return 0
        } catch {
            FileHandle.standardError.write(Data("bookshelf: \(error)\n".utf8))
            return error is CommandError ? 2 : 1
        }
    }
}
