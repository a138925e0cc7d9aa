import Foundation
import Strata
import Testing

@testable import BookshelfCore

@Suite("store migrate [--dry-run]")
struct MigrateCommandTests {
    @Test("--dry-run prints the stages, changes and SQL and leaves the file as it was; migrate then applies them")
    func dryRunThenMigrate() throws {
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
        // A store from a release that only kept books.
        _ = try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: URL(fileURLWithPath: path)))
        let before = FileManager.default.contents(atPath: path)
        let dryRun = try MigrateCommand.run(["--dry-run"], location: .file(path))
        #expect(dryRun.contains("Dry run"))
        #expect(dryRun.contains("inferred stage"))
        #expect(dryRun.contains("add entity TaskItem"))
        #expect(dryRun.contains("CREATE TABLE \"TaskItem\""))
        #expect(FileManager.default.contents(atPath: path) == before)

        let migrated = try MigrateCommand.run([], location: .file(path))
        #expect(migrated.contains("Migrated the store"))
        #expect(try MigrateCommand.run(["--dry-run"], location: .file(path)).contains("nothing to migrate"))
    }

    @Test("An unknown argument is a usage error")
    func unknownArgument() {
        #expect(throws: CommandError.self) { try MigrateCommand.run(["--now"], location: .memory) }
    }
}
