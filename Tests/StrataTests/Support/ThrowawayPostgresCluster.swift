import Foundation
import StrataTestSupport
import Synchronization

/// A PostgreSQL cluster of one test's own, which the test may stop and start again (the shared
/// ``PostgresTestServer`` must stay up for the rest of the suite): initdb into a temporary directory (as the
/// `postgres` user when running as root), trust authentication, a free port on 127.0.0.1. Removed when released.
/// `initdb` and `pg_ctl` run on a thread of their own (``onOwnThread(_:)``): a test awaits them.
final class ThrowawayPostgresCluster: Sendable {
    let port = PostgresTestServer.freePort()
    private let directory = PostgresTestServer.clusterParentDirectory() + "/strata-pg-own-\(UUID().uuidString.prefix(8))"
    private let binaries: String
    private let asPostgres = getuid() == 0
    /// Whether the server runs, so that releasing a stopped cluster waits for no `pg_ctl`.
    private let running = Mutex(false)

    private init(binaries: String) {
        self.binaries = binaries
    }

    /// Creates and starts a cluster; `nil` when no PostgreSQL server binaries are installed.
    static func make() async throws -> ThrowawayPostgresCluster? {
        guard let binaries = PostgresTestServer.binaries() else { return nil }
        let cluster = ThrowawayPostgresCluster(binaries: binaries)
        try await onOwnThread {
            try FileManager.default.createDirectory(atPath: cluster.directory, withIntermediateDirectories: true)
            if cluster.asPostgres { try PostgresTestServer.run("/bin/chown", ["postgres:postgres", cluster.directory]) }
            try PostgresTestServer.run(binaries + "/initdb", [
                "-D", cluster.directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C",
            ], asPostgres: cluster.asPostgres)
        }
        try await cluster.start()
        return cluster
    }

    deinit {
        if running.withLock({ $0 }) { try? stopNow() }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The cluster's URL, with `password` in it when given (trust authentication ignores it).
    func url(password: String? = nil) -> URL {
        URL(string: "postgresql://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/postgres")!
    }

    /// Starts the server and waits until it accepts connections.
    func start() async throws {
        try await onOwnThread { [self] in
            try PostgresTestServer.run(binaries + "/pg_ctl", [
                "-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
                "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
            ], asPostgres: asPostgres)
            running.withLock { $0 = true }
        }
    }

    /// Stops the server (`fast`: every session is ended, open transactions roll back) and waits until it is down.
    func stop() async throws {
        try await onOwnThread { [self] in try stopNow() }
    }

    private func stopNow() throws {
        try PostgresTestServer.run(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"], asPostgres: asPostgres)
        running.withLock { $0 = false }
    }
}
