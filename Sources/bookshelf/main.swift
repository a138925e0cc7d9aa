import Foundation
import Strata
import StrataState

// bookshelf: the seeds' apps (books, tasks, journal, to-dos) as a full-screen terminal app over a Strata store,
// plus scripting subcommands over the same store.

var arguments = Array(CommandLine.arguments.dropFirst())
do {
    let location = try StoreLocation.extract(from: &arguments)
    if arguments == ["--help"] || arguments == ["-h"] {
        print(ScriptCommand.usage)
        exit(0)
    }
    let container = try location.openContainer()
    let shelf = Shelf(container: container)
    if arguments.isEmpty {
        OpenedStore.container = container
        let viewModel = ShelfViewModel(shelf: shelf, storePath: location.displayPath)
        Application.logger = MessageLineLogger(shelf: viewModel)
        try await App(shelf: viewModel).run()
    } else {
        let output = try ScriptCommand.run(arguments, shelf: shelf)
        if !output.isEmpty { print(output) }
    }
} catch {
    FileHandle.standardError.write(Data("bookshelf: \(error)\n".utf8))
    exit(error is CommandError ? 2 : 1)
}
