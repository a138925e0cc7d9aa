import Foundation
import StrataTestSupport
import Testing

@testable import BookshelfCore

@Suite("bookshelf sync: two shelves, one hub")
struct SyncCommandTests {
    /// The lines of a run's output that the user reads as the walkthrough's outcome.
    private static func lines(_ run: CapturedRun) -> [String] {
        run.output.components(separatedBy: "\n")
    }

    @Test(.needsPostgreSQL)
    func theBookArrivesOnShelfBAndTheConflictKeepsTheLastTitleToReachTheHub() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = StoreKind.newDatabaseSchema(prefix: "bookshelf_sync_")
        let run = await CapturedRun.run(["sync", "--hub", url.absoluteString, "--hub-schema", schema])
        #expect(run.status == 0, "notes: \(run.notes)")
        let lines = Self.lines(run)
        func after(_ step: String) -> [String] {
            guard let index = lines.firstIndex(where: { $0.hasPrefix(step) }) else { return [] }
            return Array(lines[(index + 1)...].prefix { $0.hasPrefix("   ") })
        }
        #expect(after("2. Shelf B syncs") == ["   shelf B: Dune — Frank Herbert (Chilton)"])
        #expect(
            after("3. Offline") == [
                "   shelf A: Dune (first edition) — Frank Herbert (Chilton)",
                "   shelf B: Dune (paperback) — Frank Herbert (Chilton)",
            ])
        #expect(
            after("5. Shelf B syncs") == [
                "   Conflict: title changed on shelf B and on the hub. The default rule keeps shelf B's: "
                    + "the last change of a property to reach the hub wins."
            ])
        #expect(
            after("6. Shelf A syncs again") == [
                "   shelf A: Dune (paperback) — Frank Herbert (Chilton)",
                "   shelf B: Dune (paperback) — Frank Herbert (Chilton)",
                "   The shelves agree.",
            ])
        #expect(after("7. Shelf B deletes") == ["   shelf A: (no such book)", "   shelf B: (no such book)"])
        #expect(lines.contains { $0.hasPrefix("  hub      ") && $0.contains("(schema \(schema))") })
    }

    @Test(.needsPostgreSQL)
    func shelvesKeptInADirectoryResumeWithTheirSavedState() async throws {
        let url = try #require(PostgresTestServer.url)
        let schema = StoreKind.newDatabaseSchema(prefix: "bookshelf_sync_")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bookshelf-sync-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["sync", "--hub", url.absoluteString, "--hub-schema", schema, "--shelves", directory.path]
        let first = await CapturedRun.run(arguments)
        #expect(first.status == 0, "notes: \(first.notes)")
        for file in ["shelf-a.store", "shelf-b.store", "shelf-a.sync-state.json", "shelf-b.sync-state.json"] {
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path), "\(file)")
        }
        let second = await CapturedRun.run(arguments)
        #expect(second.status == 0, "notes: \(second.notes)")
        #expect(second.output.contains("   The shelves agree."))
    }

    @Test func withoutAHubItSaysWhatToPass() async throws {
        var thrown: CommandError?
        do {
            try await SyncCommand.run([], environment: [:]) { _ in }
        } catch let error as CommandError {
            thrown = error
        }
        #expect(
            thrown?.description
                == "sync needs a PostgreSQL hub: pass --hub postgresql://USER@HOST:PORT/DATABASE "
                + "(or set STRATA_POSTGRES_URL)")
        let bad = await CapturedRun.run(["sync", "--hub", "http://example.org"])
        #expect(bad.status == 2)
        #expect(bad.notes == ["invalid value 'http://example.org' for --hub: expected a postgresql:// connection URI"])
    }

    @Test func anUnreachableHubIsNamedWithoutItsPasswordAndWhatToPass() async throws {
        // Nothing listens on port 1.
        let run = await CapturedRun.run(["sync", "--hub", "postgresql://reader:s3cret@127.0.0.1:1/books"])
        #expect(run.status == 1)
        let note = try #require(run.notes.first)
        #expect(note.hasPrefix("sync: the hub can't be reached: "))
        #expect(
            note.hasSuffix(
                "start PostgreSQL at postgresql://reader:***@127.0.0.1:1/books (schema bookshelf_sync), or pass "
                    + "--hub postgresql://USER@HOST:PORT/DATABASE naming a server that runs"))
        #expect(!note.contains("s3cret"))
        #expect(!run.output.contains("1. Shelf A"))
    }

    @Test func aStoreOptionIsRefusedBeforeAnythingOpens() async {
        let run = await CapturedRun.run(["--in-memory", "sync", "--hub", "postgresql://127.0.0.1:1/books"])
        #expect(run.status == 2)
        #expect(run.notes == ["sync opens two shelves of its own (--shelves DIR): leave out --store and --in-memory"])
    }
}
