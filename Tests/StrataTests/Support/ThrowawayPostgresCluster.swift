import Foundation

/// A PostgreSQL cluster of one test's own, which the test may stop and start again (the shared
/// ``PostgresTestServer`` must stay up for the rest of the suite): initdb into a temporary directory (as the
/// `postgres` user when running as root), trust authentication, a free port on 127.0.0.1. Removed when released.
final class ThrowawayPostgresCluster {
    let port = PostgresTestServer.freePort()
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pg-own-\(UUID().uuidString.prefix(8))").path
    private let binaries: String
    private let asPostgres = getuid() == 0

    /// Creates and starts the cluster; `nil` when no PostgreSQL server binaries are installed.
    init?() throws {
        guard let binaries = PostgresTestServer.binaries() else { return nil }
        self.binaries = binaries
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asPostgres { try PostgresTestServer.run("/bin/chown", ["postgres:postgres", directory]) }
        try PostgresTestServer.run(
            binaries + "/initdb", ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C"],
            asPostgres: asPostgres)
        try start()
    }

    deinit {
        try? stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The cluster's URL, with `password` in it when given (trust authentication ignores it).
    func url(password: String? = nil) -> URL {
        URL(string: "postgresql://postgres\(password.map { ":" + $0 } ?? "")@127.0.0.1:\(port)/postgres")!
    }

    /// Starts the server and waits until it accepts connections.
    func start() throws {
        try PostgresTestServer.run(binaries + "/pg_ctl", [
            "-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
            "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off", "start",
        ], asPostgres: asPostgres)
    }

    /// Stops the server (`fast`: every session is ended, open transactions roll back) and waits until it is down.
    func stop() throws {
        try PostgresTestServer.run(binaries + "/pg_ctl", ["-D", directory + "/data", "-m", "fast", "-w", "stop"], asPostgres: asPostgres)
    }
}
