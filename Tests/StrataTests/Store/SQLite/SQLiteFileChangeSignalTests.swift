import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

@Suite("SQLiteFileChangeSignal")
struct SQLiteFileChangeSignalTests {
    /// Long enough for any event on a loaded machine; a wait that sees its event returns at once.
    static let eventTimeout: Duration = .seconds(10)

    @Test(.enabled(if: Self.hasFileEvents, "file events are inotify's, on Linux"))
    func anotherConnectionsCommitWakesIt() throws {
        let file = SQLiteTestFile()
        let writer = try SQLiteConnection(location: .file(file.path))
        try writer.execute("CREATE TABLE t(x)")
        let signal = try #require(SQLiteFileChangeSignal(storePath: file.path))
        try writer.execute("INSERT INTO t VALUES (1)")
        #expect(signal.wait(timeout: Self.eventTimeout))
    }

    @Test(.enabled(if: Self.hasFileEvents, "file events are inotify's, on Linux"))
    func followsTheWALFileDeletedAndCreatedAgain() throws {
        let file = SQLiteTestFile()
        let signal = try #require(SQLiteFileChangeSignal(storePath: file.path))
        try Data([1]).write(to: URL(fileURLWithPath: file.path + "-wal"))
        #expect(signal.wait(timeout: Self.eventTimeout))
        try FileManager.default.removeItem(atPath: file.path + "-wal")
        try Data([2]).write(to: URL(fileURLWithPath: file.path + "-wal"))
        #expect(signal.wait(timeout: Self.eventTimeout))
    }

    @Test(.enabled(if: Self.hasFileEvents, "file events are inotify's, on Linux"))
    func rollbackJournalWritersWriteTheFileItself() throws {
        let file = SQLiteTestFile()
        try file.write([0])
        let signal = try #require(SQLiteFileChangeSignal(storePath: file.path))
        try file.write([1, 2])
        #expect(signal.wait(timeout: Self.eventTimeout))
    }

    @Test(.enabled(if: Self.hasFileEvents, "file events are inotify's, on Linux"))
    func otherFilesOfTheDirectoryDontWakeIt() throws {
        let file = SQLiteTestFile()
        let signal = try #require(SQLiteFileChangeSignal(storePath: file.path))
        let neighbour = file.path + "-other"
        defer { try? FileManager.default.removeItem(atPath: neighbour) }
        try Data([1]).write(to: URL(fileURLWithPath: neighbour))
        #expect(!signal.wait(timeout: .milliseconds(50)))
        // The neighbour's events were consumed without ending the wait early; the store's next write is seen.
        try Data([1]).write(to: URL(fileURLWithPath: file.path + "-wal"))
        #expect(signal.wait(timeout: Self.eventTimeout))
    }

    @Test func aDirectoryThatDoesntExistGivesNoSignal() {
        #expect(SQLiteFileChangeSignal(storePath: "/nonexistent-\(UUID().uuidString)/store.sqlite") == nil)
    }

    static var hasFileEvents: Bool {
        #if os(Linux)
        true
        #else
        false
        #endif
    }
}
