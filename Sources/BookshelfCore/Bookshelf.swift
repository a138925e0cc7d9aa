import CommandLineSupport
import Foundation
import Strata
import StrataState

/// The `bookshelf` command: books, tasks, journal, to-dos and books per author (a live aggregate) as a full-screen
/// terminal app over a Strata store, plus scripting subcommands over the same store.
///
/// ```swift
/// exit(await Bookshelf.main(Array(CommandLine.arguments.dropFirst())))
/// ```
package enum Bookshelf {
    /// Runs `bookshelf` with `arguments` (without the program name): the full-screen app when no subcommand is
    /// given, otherwise the subcommand, whose output goes to standard output and whose notes (an in-memory store's
    /// sample data, a write that won't be kept) go to standard error.
    ///
    /// - Returns: the exit status: 0 on success, 2 for a usage error (bad option, missing field, bad `--where`),
    ///   1 when the store can't be opened or written. The error is printed to standard error.
    @MainActor
    package static func main(_ arguments: [String]) async -> Int32 {
        await main(
            arguments, output: { print($0) },
            note: { FileHandle.standardError.write(Data("bookshelf: \($0)\n".utf8)) })
    }

    /// Runs `bookshelf` with `arguments`, handing what goes to standard output to `output` and each note or error
    /// for standard error (without the `bookshelf: ` prefix) to `note`.
    ///
    /// - Returns: the exit status, as `main(_:)` returns it.
    @MainActor
    static func main(
        _ arguments: [String], output: (String) -> Void, note: (String) -> Void
    ) async -> Int32 {
        var arguments = arguments
        do {
            let location = try StoreLocation.extract(from: &arguments)
            if arguments.contains("--help") || arguments.contains("-h") {
                output(ScriptCommand.usage)
                return 0
            }
            if arguments == ["--version"] {
                output("bookshelf \(CommandLineTool.version)")
                return 0
            }
            if arguments.first == "sync" {
                guard location == .standard else {
                    throw CommandError.usage(
                        "sync opens two shelves of its own (--shelves DIR): leave out --store and --in-memory")
                }
                try await SyncCommand.run(
                    Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment, output: output)
                return 0
            }
            if arguments.count >= 2, arguments[0] == "store", arguments[1] == "migrate" {
                output(try MigrateCommand.run(Array(arguments.dropFirst(2)), location: location))
                return 0
            }
            // The whole command line is checked before a store is created or opened.
            let command = arguments.isEmpty ? nil : try ScriptCommand.prepare(arguments)
            let container = try location.openContainer()
            let sample = location == .memory ? try SampleShelf.fill(container) : nil
            let shelf = Shelf(container: container, author: arguments.isEmpty ? nil : "script")
            if arguments.isEmpty {
                OpenedStore.container = container
                let viewModel = ShelfViewModel(shelf: shelf, storePath: location.displayPath)
                if sample != nil { viewModel.message = "In memory, with sample data: nothing is kept when you quit." }
                Application.logger = MessageLineLogger(shelf: viewModel)
                try await App(shelf: viewModel).run()
            } else if let command {
                if let sample { note(SampleShelf.startNote(sample)) }
                let text = try command(shelf)
                if !text.isEmpty { output(text) }
                if sample != nil, let kept = command.changedRecord {
                    note(
                        "the \(kept) is not kept: an in-memory store is gone when bookshelf exits "
                            + "(leave out --in-memory to use the default store, or give --store PATH)")
                }
            }
            return 0
        } catch {
            note("\(error)")
            return error is CommandError ? 2 : 1
        }
    }
}
