import Foundation
@testable import StrataTestFixtures

/// A unique database path in the temporary directory, removed (with its WAL files) on deinit.
final class SQLiteTestFile {
    let path: String

    init() {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("strata-sqlite-\(UUID().uuidString).sqlite").path
    }

    deinit {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }

    /// The file's current bytes (empty when missing).
    func bytes() -> [UInt8] {
        FileManager.default.contents(atPath: path).map(Array.init) ?? []
    }

    /// Replaces the file's content.
    func write(_ bytes: [UInt8]) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Whether a companion file (such as "-wal") exists.
    func companionExists(_ suffix: String) -> Bool {
        FileManager.default.fileExists(atPath: path + suffix)
    }
}
