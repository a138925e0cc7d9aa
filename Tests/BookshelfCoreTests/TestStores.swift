import Foundation
import Strata

@testable import BookshelfCore

/// Stores for tests: in memory, or a temporary file that a second container (a stand-in for a second process)
/// can open too.
enum TestStores {
    /// A shelf over a fresh in-memory store.
    static func memory() throws -> Shelf {
        Shelf(container: try StoreLocation.memory.openContainer())
    }

    /// A new temporary store path; the file is created on first open.
    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-tests-\(UUID().uuidString).store").path
    }

    /// The `bookshelf` executable the package builds next to the test bundle.
    static func bookshelfBinary() -> URL? {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("bookshelf") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Removes the store at `path` and its journal files.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
