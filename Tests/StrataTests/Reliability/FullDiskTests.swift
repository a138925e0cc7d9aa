import Foundation
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataTestFixtures

/// Mounting small tmpfs file systems, which needs root allowed to mount.
private enum Mount {
    /// Whether this process can mount a tmpfs: tried once, on a directory of its own.
    static let isPossible: Bool = {
        guard getuid() == 0 else { return false }
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-mount-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)) != nil
        else { return false }
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        guard run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path]) else { return false }
        return run("/bin/umount", [mountPoint.path])
    }()

    /// Runs `/bin/mount` or `/bin/umount`; whether it succeeded.
    static func run(_ tool: String, _ arguments: [String]) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        return process.waitForExit() == Process.Exit(status: 0, reason: .exit)
    }
}

/// A store on a full disk and on a read-only file system: small tmpfs mounts, which need root allowed to mount (CI
/// runs as root); elsewhere the tests are skipped, saying why.
@Suite(
    "Full disk and read-only file system",
    .enabled(if: Mount.isPossible, "mounting a tmpfs needs root, allowed to mount (CI runs as root)"))
struct FullDiskTests {
    @Test("Saves on a full disk fail with a StrataError; every earlier save stays and the store stays intact")
    func savesOnAFullDisk() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "strata-full-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try #require(Mount.run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", mountPoint.path]))
        defer { _ = Mount.run("/bin/umount", [mountPoint.path]) }

        let url = mountPoint.appendingPathComponent("full.store")
        var saved = 0
        var failure: (any Error)?
        do {
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            for round in 0..<400 {
                for number in 0..<20 {
                    context.insert(
                        Book(
                            title: "\(round)-\(number)", author: "", publisher: "",
                            summary: String(repeating: "x", count: 400)))
                }
                do {
                    try context.save()
                    saved += 20
                } catch {
                    failure = error
                    break
                }
            }
        }
        let error = try #require(failure, "1 MB never filled up")
        #expect(StrataError(error) != nil, "\(error)")
        #expect(saved > 0)
        let connection = try SQLiteConnection(location: .file(url.path), readOnly: true)
        #expect(try connection.query("PRAGMA integrity_check", []) == [[.text("ok")]])
        #expect(try connection.query("SELECT count(*) FROM \"Book\"", []) == [[.integer(Int64(saved))]])
    }

    @Test(
        "A store on a read-only file system: opening for writing fails with a StrataError or reads; the file is unchanged"
    )
    func readOnlyFileSystem() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent("strata-ro-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mountPoint) }
        try #require(Mount.run("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path]))
        defer { _ = Mount.run("/bin/umount", [mountPoint.path]) }
        let url = mountPoint.appendingPathComponent("ro.store")
        do {
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            context.insert(Book(title: "kept", author: "", publisher: ""))
            try context.save()
        }
        let before = try Data(contentsOf: url)
        // The store's files close once the last reference to its container goes, which the save's change delivery
        // may hold a moment longer; a remount that still finds a file open for writing is tried again.
        let remounted = (0..<50).contains { attempt in
            if attempt > 0 { Thread.sleep(forTimeInterval: 0.1) }
            return Mount.run("/bin/mount", ["-o", "remount,ro", mountPoint.path])
        }
        try #require(remounted)
        do {
            let context = ModelContext(try ModelContainer(for: Book.self, configurations: ModelConfiguration(url: url)))
            #expect(try context.fetch(FetchDescriptor<Book>()).map(\.title) == ["kept"])
            context.insert(Book(title: "new", author: "", publisher: ""))
            #expect(throws: SwiftDataError.self) { try context.save() }
        } catch {
            #expect(StrataError(error) != nil, "\(error)")
        }
        #expect(try Data(contentsOf: url) == before)
    }
}
