import Foundation
import Synchronization

/// A PostgreSQL cluster of one test's own, which the test may stop, kill, start again or promote (the shared
/// ``PostgresTestServer`` must stay up for the rest of the suite): initdb (or `pg_basebackup` of another cluster)
/// into a temporary directory (in memory when it can be, as the `postgres` user when running as root), trust
/// authentication, a free port on 127.0.0.1. Stopped and removed when released, and by a watcher if the test
/// process dies first. `initdb` and `pg_ctl` run on a thread of their own (``onOwnThread(_:)``): a test awaits them.
package final class ThrowawayPostgresCluster: Sendable {
    /// How ``stop(_:)`` shuts the server down (`pg_ctl stop -m`).
    package enum StopMode: String, Sendable {
        /// Every session ended, open transactions rolled back, a checkpoint written.
        case fast
        /// Every server process killed at once, as a crash would: nothing flushed, recovery at the next start.
        case immediate
    }

    package let port = PostgresTestServer.freePort()
    private let directory =
        PostgresTestServer.clusterParentDirectory() + "/strata-pg-own-\(UUID().uuidString.prefix(8))"
    private let binaries: String
    private let asPostgres = getuid() == 0
    /// Whether the server runs, so that releasing a stopped cluster waits for no `pg_ctl`.
    private let running = Mutex(false)

    private init(binaries: String) {
        self.binaries = binaries
    }

    /// Creates and starts a cluster with `settings` (`postgresql.conf` lines) added to initdb's; `nil` when no
    /// PostgreSQL server binaries are installed.
    package static func make(settings: [String] = []) async throws -> ThrowawayPostgresCluster? {
        guard let binaries = PostgresTestServer.binaries() else { return nil }
        let cluster = ThrowawayPostgresCluster(binaries: binaries)
        try await onOwnThread {
            try cluster.createDirectory()
            try PostgresTestServer.run(
                binaries + "/initdb",
                [
                    "-D", cluster.dataDirectory, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync",
                    "--locale=C",
                ], asPostgres: cluster.asPostgres)
            try cluster.appendSettings(settings)
        }
        try await cluster.start()
        return cluster
    }

    /// Creates and starts a streaming standby of `primary` (`pg_basebackup -R`: a copy of its files that replicates
    /// from it, read-only until promoted), with `settings` overriding the primary's.
    package static func standby(
        of primary: ThrowawayPostgresCluster, settings: [String] = []
    ) async throws -> ThrowawayPostgresCluster {
        let standby = ThrowawayPostgresCluster(binaries: primary.binaries)
        try await onOwnThread {
            try standby.createDirectory()
            try PostgresTestServer.run(
                primary.binaries + "/pg_basebackup",
                [
                    "-h", "127.0.0.1", "-p", "\(primary.port)", "-U", "postgres", "-D", standby.dataDirectory,
                    "-R", "-X", "stream", "--no-sync", "-c", "fast",
                ], asPostgres: standby.asPostgres)
            try standby.appendSettings(settings)
        }
        try await standby.start()
        return standby
    }

    deinit {
        if running.withLock({ $0 }) { try? stopNow(.immediate) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    private var dataDirectory: String { directory + "/data" }

    private func createDirectory() throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asPostgres { try PostgresTestServer.run("/bin/chown", ["postgres:postgres", directory]) }
        PostgresTestServer.watchForCrash(directory: directory, bin: binaries, asPostgres: asPostgres)
    }

    /// Appends `settings` to `postgresql.conf`, where a later line overrides an earlier one.
    private func appendSettings(_ settings: [String]) throws {
        guard !settings.isEmpty, let file = FileHandle(forWritingAtPath: dataDirectory + "/postgresql.conf") else {
            return
        }
        defer { try? file.close() }
        try file.seekToEnd()
        try file.write(contentsOf: Data(("\n" + settings.joined(separator: "\n") + "\n").utf8))
    }

    /// The cluster's URL, with `password` in it when given (trust authentication ignores it).
    package func url(password: String? = nil) -> URL {
        URL(string: "postgresql://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/postgres")!
    }

    /// Starts the server and waits until it accepts connections.
    package func start() async throws {
        try await onOwnThread { [self] in
            try PostgresTestServer.run(
                binaries + "/pg_ctl",
                [
                    "-D", dataDirectory, "-l", directory + "/log", "-w", "-o",
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
                ], asPostgres: asPostgres)
            running.withLock { $0 = true }
        }
    }

    /// Stops the server and waits until it is down.
    package func stop(_ mode: StopMode = .fast) async throws {
        try await onOwnThread { [self] in try stopNow(mode) }
    }

    /// Ends recovery on a standby (`pg_ctl promote`), waiting until it accepts writes.
    package func promote() async throws {
        try await onOwnThread { [self] in
            try PostgresTestServer.run(
                binaries + "/pg_ctl", ["-D", dataDirectory, "-w", "promote"], asPostgres: asPostgres)
        }
    }

    private func stopNow(_ mode: StopMode) throws {
        try PostgresTestServer.run(
            binaries + "/pg_ctl", ["-D", dataDirectory, "-m", mode.rawValue, "-w", "stop"], asPostgres: asPostgres)
        running.withLock { $0 = false }
    }
}
