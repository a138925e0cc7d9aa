import Foundation
import Testing

@testable import BookshelfCore

@Suite("bookshelf checks its command line before touching a store")
struct CommandLineValidationTests {
    /// A store path in a fresh temporary directory, and the directory to remove afterwards.
    private func temporaryStore() -> (path: String, directory: URL) {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("bookshelf-arguments-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (directory.appendingPathComponent("shelf.store").path, directory)
    }

    @Test("A mistyped option, a missing field or a bad value exits 2 and creates no store")
    @MainActor
    func refusedBeforeOpening() async {
        let (store, directory) = temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await Bookshelf.main(["--store", store, "books", "add", "--titel", "Dune"]) == 2)
        #expect(await Bookshelf.main(["--store", store, "tasks", "add", "--priority", "3"]) == 2)
        #expect(await Bookshelf.main(["--store", store, "tasks", "add", "--title", "t", "--due", "tomorrow"]) == 2)
        #expect(await Bookshelf.main(["--store", store, "books", "list", "--where", "title =="]) == 2)
        #expect(await Bookshelf.main(["--store", store, "books", "shelve"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test("--version and --help exit 0 without a store; a valid command then creates it")
    @MainActor
    func versionAndHelp() async {
        let (store, directory) = temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(await Bookshelf.main(["--store", store, "--version"]) == 0)
        #expect(await Bookshelf.main(["--store", store, "--help"]) == 0)
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(await Bookshelf.main(["--store=\(store)", "tasks", "add", "--title=taxes", "--priority=3"]) == 0)
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test("Options are accepted as --name=value")
    func equalsSpelling() throws {
        let shelf = try TestStores.memory()
        _ = try ScriptCommand.run(
            ["books", "add", "--title=Dune", "--author=Frank Herbert", "--publisher=Chilton"],
            shelf: shelf)
        #expect(
            try ScriptCommand.run(["books", "list", "--where=author BEGINSWITH 'Frank'"], shelf: shelf)
                .contains("Dune"))
    }
}
