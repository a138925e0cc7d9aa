import Foundation
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// What an open checks without reading the whole file: the header, the schema, a full check after an unclean
/// shutdown, and SQLite's own errors on the reads that reach damage.
@Suite("SQLiteConnection open-time checks")
struct SQLiteConnectionIntegrityTests {
    @Test func damageTheOpenDoesNotReadFailsTheReadThatReachesItWithTheFileUntouched() throws {
        let file = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: file)
        let damaged = try SQLiteConnectionOpenTests.damageMiddlePage(of: file)
        do {
            let connection = try SQLiteConnection(location: .file(file.path))
            let error = try #require(throws: SQLiteError.self) {
                _ = try connection.query("SELECT title FROM book", [])
            }
            #expect(error.isCorrupt)
        }
        #expect(file.bytes() == damaged)
    }

    @Test func fileCutShortOfTheHeadersPageCountIsRefusedAsCorrupt() throws {
        let file = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: file)
        let full = file.bytes()
        for length in [100, 4096, 4097, full.count - 4096, full.count - 1] {
            let truncated = Array(full.prefix(length))
            try file.write(truncated)
            let error = try #require(throws: SQLiteError.self) { _ = try SQLiteConnection(location: .file(file.path)) }
            #expect(error.isCorrupt, "cut to \(length) of \(full.count) bytes: \(error)")
            #expect(error.description.contains("\(full.count / 4096) pages"), "\(error)")
            #expect(file.bytes() == truncated)
        }
    }

    @Test(arguments: [
        (16, [0x03, 0x00], "page size of 768"),
        (18, [0x07], "file format versions"),
        (21, [0x40, 0x40], "payload fractions"),
        (44, [0x00, 0x00, 0x00, 0x09], "schema format 9"),
        (56, [0x00, 0x00, 0x00, 0x07], "text encoding 7"),
        (80, [0xFF], "reserved bytes"),
    ])
    func headerFieldSQLiteNeverWritesIsRefusedAsCorrupt(offset: Int, bytes: [UInt8], named: String) throws {
        let file = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: file)
        var damaged = file.bytes()
        damaged.replaceSubrange(offset..<offset + bytes.count, with: bytes)
        try file.write(damaged)
        let error = try #require(throws: SQLiteError.self) { _ = try SQLiteConnection(location: .file(file.path)) }
        #expect(error.isCorrupt)
        #expect(error.description.contains(named), "\(error)")
        #expect(file.bytes() == damaged)
    }

    @Test func headerCutShortAfterTheMagicIsRefusedAsCorrupt() throws {
        let file = SQLiteTestFile()
        let original = Array("SQLite format 3\0".utf8) + [0x10, 0x00, 0x02]
        try file.write(original)
        let error = try #require(throws: SQLiteError.self) { _ = try SQLiteConnection(location: .file(file.path)) }
        #expect(error.isCorrupt)
        #expect(file.bytes() == original)
    }

    @Test func damagedSchemaPageIsRefusedAtOpen() throws {
        let file = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: file)
        var damaged = file.bytes()
        // Page 1's b-tree header follows the 100-byte file header: a page type SQLite doesn't know.
        damaged[100] = 0x07
        try file.write(damaged)
        let error = try #require(throws: SQLiteError.self) { _ = try SQLiteConnection(location: .file(file.path)) }
        #expect(error.isCorrupt, "\(error)")
        #expect(file.bytes() == damaged)
    }

    /// A store and its write-ahead log copied while a writer has it open look like files left by a crash: the
    /// open runs the full check and finds damage in a page the log doesn't hold.
    @Test func fileLeftByAnUncleanShutdownGetsTheFullCheck() throws {
        let writerFile = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: writerFile)
        let copy = SQLiteTestFile()
        let writer = try SQLiteConnection(location: .file(writerFile.path))
        try writer.execute("CREATE TABLE note(text TEXT); INSERT INTO note VALUES ('in the log only')")
        let log = try #require(FileManager.default.contents(atPath: writerFile.path + "-wal"))
        #expect(log.count > 32)
        try copy.write(writerFile.bytes())
        let damaged = try SQLiteConnectionOpenTests.damageMiddlePage(of: copy)
        try log.write(to: URL(fileURLWithPath: copy.path + "-wal"))

        let error = try #require(throws: SQLiteError.self) { _ = try SQLiteConnection(location: .file(copy.path)) }
        #expect(error.isCorrupt)
        #expect(error.description.contains(copy.path))
        #expect(copy.bytes() == damaged)
        #expect(FileManager.default.contents(atPath: copy.path + "-wal") == log, "the log was checkpointed or changed")
        withExtendedLifetime(writer) {}
    }

    @Test func logOfAConnectionStillOpenInThisProcessDoesNotCountAsAnUncleanShutdown() throws {
        let file = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: file)
        let writer = try SQLiteConnection(location: .file(file.path))
        try writer.execute("CREATE TABLE note(text TEXT); INSERT INTO note VALUES ('in the log only')")
        #expect(SQLiteOpenFiles.hasFrames(walOf: file.path))
        // Damage in the main file that the log covers nowhere: only a full check would find it.
        var bytes = file.bytes()
        bytes[bytes.count / 2 + 2048] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: file.path), options: [])
        let reader = try SQLiteConnection(location: .file(file.path), readOnly: true)
        #expect(try reader.query("SELECT text FROM note", []) == [[.text("in the log only")]])
    }

    @Test func recoveredFileThatPassesTheFullCheckOpensWithItsLoggedCommits() throws {
        let writerFile = SQLiteTestFile()
        try SQLiteConnectionOpenTests.makeDatabase(at: writerFile)
        let copy = SQLiteTestFile()
        let writer = try SQLiteConnection(location: .file(writerFile.path))
        try writer.execute("CREATE TABLE note(text TEXT); INSERT INTO note VALUES ('in the log only')")
        try copy.write(writerFile.bytes())
        try FileManager.default.copyItem(atPath: writerFile.path + "-wal", toPath: copy.path + "-wal")
        let reopened = try SQLiteConnection(location: .file(copy.path))
        #expect(try reopened.query("SELECT text FROM note", []) == [[.text("in the log only")]])
        withExtendedLifetime(writer) {}
    }
}
