import Foundation

/// A PgBouncer of one test's own in front of a PostgreSQL server: Debian's `pgbouncer`, started as the `postgres`
/// user when running as root (PgBouncer refuses to run as root), on a free port on 127.0.0.1, every client logged
/// in as the server's `postgres` user (`auth_type = any`). Stopped when released, and by a watcher if the test
/// process dies first.
package final class PgBouncerProcess: Sendable {
    /// How PgBouncer hands server connections to clients (`pool_mode`).
    package enum PoolMode: String, Sendable {
        /// A client keeps one server connection for as long as it is connected.
        case session
        /// A client holds a server connection only for the length of each transaction.
        case transaction
    }

    /// Where Debian installs PgBouncer.
    package static let executable = "/usr/sbin/pgbouncer"

    /// Whether PgBouncer is installed; `.ci/run` installs it, and requires it with `STRATA_REQUIRE_POSTGRES=1`.
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    package let port = PostgresTestServer.freePort()
    private let directory: String
    private let asPostgres = getuid() == 0

    private init(directory: String) {
        self.directory = directory
    }

    /// Starts a PgBouncer in `mode` in front of the server at `server` and waits until it accepts connections.
    /// - Throws: when the configuration can't be written or PgBouncer doesn't start within 10 s.
    package static func start(in mode: PoolMode, before server: URL) async throws -> PgBouncerProcess {
        let directory = FileManager.default.temporaryDirectory.path + "/strata-pgbouncer-\(UUID().uuidString.prefix(8))"
        let bouncer = PgBouncerProcess(directory: directory)
        try await onOwnThread {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let configuration = """
                [databases]
                * = host=\(server.host ?? "127.0.0.1") port=\(server.port ?? 5432) user=postgres
                [pgbouncer]
                listen_addr = 127.0.0.1
                listen_port = \(bouncer.port)
                unix_socket_dir =
                auth_type = any
                pool_mode = \(mode.rawValue)
                max_client_conn = 200
                default_pool_size = 20
                logfile = \(directory)/pgbouncer.log
                pidfile = \(bouncer.pidFile)

                """
            try configuration.write(toFile: bouncer.configurationFile, atomically: true, encoding: .utf8)
            if bouncer.asPostgres { try PostgresTestServer.run("/bin/chown", ["-R", "postgres:postgres", directory]) }
            PostgresTestServer.runWhenThisProcessEnds(bouncer.stopCommand + "; rm -rf \(directory)")
            // `-d`: detaches once it listens, so the command returns.
            try PostgresTestServer.run(
                executable, ["-d", bouncer.configurationFile], asPostgres: bouncer.asPostgres)
            try bouncer.waitUntilListening()
        }
        return bouncer
    }

    deinit {
        try? PostgresTestServer.run("/bin/sh", ["-c", stopCommand])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A URL reaching the server through this PgBouncer.
    package var url: URL { URL(string: "postgresql://postgres@127.0.0.1:\(port)/postgres")! }

    /// The signals PgBouncer's process blocks (`SigBlk` of `/proc/<pid>/status`), `nil` when it can't be read.
    package var blockedSignals: UInt64? {
        guard
            let pid = try? String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(
                in: .whitespacesAndNewlines),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
        else { return nil }
        return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// What PgBouncer logged so far.
    package var log: String { (try? String(contentsOfFile: directory + "/pgbouncer.log", encoding: .utf8)) ?? "" }

    private var configurationFile: String { directory + "/pgbouncer.ini" }
    private var pidFile: String { directory + "/pgbouncer.pid" }
    private var stopCommand: String {
        "[ -f \(pidFile) ] && kill -TERM \"$(cat \(pidFile))\" 2>/dev/null; true"
    }

    private struct NotListening: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to the port every 50 ms until something accepts, for at most 10 s.
    private func waitUntilListening() throws {
        for _ in 0..<200 {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            close(descriptor)
            if connected == 0 { return }
            usleep(50_000)
        }
        throw NotListening(description: "PgBouncer did not listen on 127.0.0.1:\(port) within 10 s:\n\(log)")
    }
}
