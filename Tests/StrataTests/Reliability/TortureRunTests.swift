import Foundation
import StrataTestSupport
import Testing

@testable import StrataTestFixtures

/// Short runs of the `strata-torture` harness (the long runs and their figures are in RELIABILITY.md): the
/// executable the package builds next to the tests is started as a child process, as a user's app would be.
@Suite("Torture harness, short runs")
struct TortureRunTests {
    /// The `strata-torture` executable built next to the test bundle.
    static func tortureBinary() -> URL? {
        let candidates = [
            URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments.first ?? "").deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent("strata-torture") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Runs `strata-torture arguments` and returns its exit status and output (awaited: ``ChildProcess``).
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String)? {
        guard let binary = tortureBinary() else {
            Issue.record("the strata-torture executable was not found next to the tests (swift build builds it)")
            return nil
        }
        let child = try await ChildProcess.run(binary, arguments)
        return (child.terminationStatus, child.output)
    }

    @Test(
        "Writers killed with SIGKILL at 5 random saves: every store opens, intact, with every logged save and no partial one"
    )
    func crash() async throws {
        guard let (status, output) = try await Self.run(["crash", "--kills", "5", "--saves", "60", "--seed", "18"])
        else { return }
        #expect(status == 0, "\(output)")
        #expect(output.contains("5/5 kills survived, 0 saves lost"), "\(output)")
    }

    @Test("Store + WAL copied at 5 random moments of a running writer: each opens to a committed prefix of the saves")
    func powercut() async throws {
        guard let (status, output) = try await Self.run(["powercut", "--copies", "5", "--seed", "18"]) else { return }
        #expect(status == 0, "\(output)")
        #expect(output.contains("5/5 copies"), "\(output)")
    }

    @Test("enumerate over 30,000 rows grows the process by well under 64 MB")
    func enumerateMemory() async throws {
        guard let (status, output) = try await Self.run(["enumerate", "--rows", "30000"]) else { return }
        #expect(status == 0, "\(output)")
        #expect(output.contains("30000 rows"), "\(output)")
    }

    @Test("3 processes opening one new store at once, 15 times: every open succeeds and finds the one store")
    func create() async throws {
        guard let (status, output) = try await Self.run(["create", "--processes", "3", "--races", "15"]) else {
            return
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains("0 failures in 15 races of 3 processes"), "\(output)")
    }

    @Test("3 processes creating one new PostgreSQL store at once, 10 times: every open succeeds", .needsPostgreSQL)
    func createOnPostgreSQL() async throws {
        let url = try PostgresTestServer.requiredURL()
        guard
            let (status, output) = try await Self.run([
                "create", "--processes", "3", "--races", "10", "--store", url.absoluteString,
            ])
        else { return }
        #expect(status == 0, "\(output)")
        #expect(output.contains("0 failures in 10 races of 3 processes"), "\(output)")
    }

    @Test(
        "2 processes x 2 contexts incrementing for 2 s under .error with retry: no increment lost, observers converge")
    func concurrency() async throws {
        guard let (status, output) = try await Self.run(["concurrency", "--processes", "2", "--seconds", "2"]) else {
            return
        }
        #expect(status == 0, "\(output)")
        #expect(output.contains(" 0 lost"), "\(output)")
    }
}
