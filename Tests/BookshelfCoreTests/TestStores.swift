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

    /// Removes the store at `path` and its journal files.
    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
