import Foundation
import Strata
import StrataTestSupport
import Testing

@testable import BookshelfCore

@Suite("A migration killed mid-way")
struct MigrationCrashTests {
    private static let rowCount = 60_000

    /// A bookshelf store whose Book table has an extra column `legacy` that the models dropped, so opening it
    /// with bookshelf's models rebuilds the table.
    private static func makeLargeOldStore(at path: String) throws {
        _ = try StoreLocation.file(path).openContainer()
        let connection = try SQLiteConnection(location: .file(path))
        try connection.execute("ALTER TABLE \"Book\" ADD COLUMN \"legacy\" TEXT")
        try connection.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(rowCount))
            INSERT INTO "Book" ("title", "author", "publisher", "summary", "legacy")
            SELECT 'Title ' || i, 'Author ' || (i % 977), 'Publisher ' || (i % 31), printf('%.60c', 'x'), 'old ' || i FROM n
            """)
        let rows = try connection.query("SELECT value FROM strata_metadata WHERE key = 'schema'", [])
        guard case .text(let text)? = rows.first?.first,
            var fingerprint = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String],
            let book = fingerprint["Book"]
        else { throw CocoaError(.fileReadCorruptFile) }
        var statements = book.components(separatedBy: "; ")
        statements[0] = String(statements[0].dropLast()) + ", \"legacy\" TEXT)"
        fingerprint["Book"] = statements.joined(separator: "; ")
        let encoded = String(
            decoding: try JSONSerialization.data(withJSONObject: fingerprint, options: [.sortedKeys]), as: UTF8.self)
        try connection.run("UPDATE strata_metadata SET value = ? WHERE key = 'schema'", [.text(encoded)])
        try connection.run("DELETE FROM strata_metadata WHERE key = 'model'", [])
    }

    @Test("SIGKILL during a table rebuild: the store opens as the old version with every row; migrating again succeeds")
    func killedDuringRebuild() async throws {
        guard let binary = TestStores.bookshelfBinary() else {
            Issue.record("the bookshelf executable was not found next to the tests")
            return
        }
        let path = TestStores.temporaryPath()
        defer {
            TestStores.remove(path)
            let directory = (path as NSString).deletingLastPathComponent
            let name = (path as NSString).lastPathComponent
            for file in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            where file.hasPrefix(name + ".backup-") {
                try? FileManager.default.removeItem(atPath: directory + "/" + file)
            }
        }
        try Self.makeLargeOldStore(at: path)

        // The rebuild writes the new table's pages to the WAL before it commits; kill the child once it has. The
        // child and the polling run on a thread of their own, leaving the cooperative pool to the other tests.
        let (killed, reason) = try await onOwnThread {
            let child = Process()
            child.executableURL = binary
            child.arguments = ["--store", path, "store", "migrate"]
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            let deadline = Date().addingTimeInterval(20)
            var killed = false
            while child.isRunning, Date() < deadline {
                let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
                if size > 1_000_000 {
                    kill(child.processIdentifier, SIGKILL)
                    killed = true
                    break
                }
                usleep(500)
            }
            return (killed, child.waitForExit().reason)
        }
        #expect(killed, "the migration ended before it could be killed")
        #expect(reason == .uncaughtSignal)

        do {
            let connection = try SQLiteConnection(location: .file(path))
            #expect(
                try connection.query("SELECT count(*) FROM \"Book\" WHERE \"legacy\" IS NOT NULL", []) == [
                    [.integer(Int64(Self.rowCount))]
                ])
            #expect(
                try connection.query("SELECT count(*) FROM strata_metadata WHERE key = 'model'", []) == [[.integer(0)]])
            #expect(
                try connection.query("SELECT count(*) FROM sqlite_master WHERE name LIKE 'strata_migrating_%'", []) == [
                    [.integer(0)]
                ])
        }
        #expect(try MigrateCommand.run([], location: .file(path)).contains("Migrated the store"))
        let shelf = Shelf(container: try StoreLocation.file(path).openContainer())
        #expect(try ModelContext(shelf.container).fetchCount(FetchDescriptor<Book>()) == Self.rowCount)
    }
}
