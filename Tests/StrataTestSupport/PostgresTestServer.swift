import Foundation
import StrataPostgres

/// The PostgreSQL server the PostgreSQL half of the suite runs against: `STRATA_POSTGRES_URL` when set, otherwise a
/// throwaway PostgreSQL cluster started once per test process (initdb into a temporary directory, in memory when it
/// can be, as the `postgres` user when running as root, trust authentication, a free port on 127.0.0.1, fsync off)
/// and stopped at exit.
/// `nil` — with a notice — only when no PostgreSQL server binaries are installed.
package enum PostgresTestServer {
    /// The connections a server for the suite allows: Swift Testing runs a test per core at once, and each
    /// PostgreSQL container holds a pool of its own (up to 4 connections and a listener), so 2 cores peak near 200
    /// and a many-core machine at several times that. `.ci/run` and `Scripts/postgres-dev.sh` use the same rule,
    /// and the same lock table: four times PostgreSQL's default share per connection, for the tests that create and
    /// drop schemas of many tables at once.
    package static var maximumConnections: Int {
        min(ProcessInfo.processInfo.activeProcessorCount * 150 + 300, 2000)
    }

    /// The server's URL, or `nil` when PostgreSQL isn't available.
    package static let url: URL? = start()

    /// The cluster's directory, when this process started it.
    nonisolated(unsafe) private static var directory: String?

    private static func start() -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let given = environment["STRATA_POSTGRES_URL"], !given.isEmpty { return URL(string: given) }
        guard let bin = binaries() else {
            print(
                "◇ PostgreSQL tests skipped: no PostgreSQL server binaries (/usr/lib/postgresql/*/bin) and no STRATA_POSTGRES_URL"
            )
            return nil
        }
        let root = getuid() == 0
        let directory = clusterParentDirectory() + "/strata-pg-\(UUID().uuidString.prefix(8))"
        let port = freePort()
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            if root { try run("/bin/chown", ["postgres:postgres", directory]) }
            try run(
                bin + "/initdb",
                ["-D", directory + "/data", "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "--locale=C"],
                asPostgres: root)
            try run(
                bin + "/pg_ctl",
                [
                    "-D", directory + "/data", "-l", directory + "/log", "-w", "-o",
                    "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off "
                        + "-c max_connections=\(maximumConnections) -c max_locks_per_transaction=256",
                    "start",
                ], asPostgres: root)
        } catch {
            print("◇ PostgreSQL tests: could not start a server in \(directory): \(error)")
            return nil
        }
        Self.directory = directory
        watchForCrash(directory: directory, bin: bin, asPostgres: root)
        atexit {
            guard let directory = PostgresTestServer.directory, let bin = PostgresTestServer.binaries() else { return }
            try? PostgresTestServer.run(
                bin + "/pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"], asPostgres: getuid() == 0)
            try? FileManager.default.removeItem(atPath: directory)
        }
        return URL(string: "postgresql://postgres@127.0.0.1:\(port)/postgres")
    }

    /// Starts a detached shell that stops the cluster and removes its directory once this process is gone: `atexit`
    /// (or releasing a ``ThrowawayPostgresCluster``) does it on a normal exit, but a test process that crashes would
    /// otherwise leave its server running.
    package static func watchForCrash(directory: String, bin: String, asPostgres: Bool) {
        let stop =
            (asPostgres ? "/usr/sbin/runuser -u postgres -- " : "")
            + [bin + "/pg_ctl", "-D", directory + "/data", "-m", "immediate", "stop"].map(shellQuoted).joined(
                separator: " ")
        runWhenThisProcessEnds("\(stop); rm -rf \(shellQuoted(directory))")
    }

    /// Starts a detached shell that runs `command` (a shell command line) once this process is gone, for
    /// servers a test starts: a crashed test process would otherwise leave them running.
    package static func runWhenThisProcessEnds(_ command: String) {
        let script = "exec </dev/null >/dev/null 2>&1; while kill -0 \(getpid()); do sleep 1; done; \(command)"
        // Not waited for: it outlives this process by design, and is reaped by init.
        _ = spawnShell(script)
    }

    /// Where throwaway clusters go: `/dev/shm` when it is a memory file system with room to spare, else the
    /// temporary directory. The tests' schemas are created and dropped by the hundred; on a disk, creating their
    /// tables' files takes the server more than twice as long, even with `fsync` off.
    package static func clusterParentDirectory() -> String {
        let memory = "/dev/shm"
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: memory))?[.systemFreeSize] as? Int ?? 0
        if free >= 1 << 30, FileManager.default.isWritableFile(atPath: memory) { return memory }
        return FileManager.default.temporaryDirectory.path
    }

    /// The newest installed PostgreSQL server's binaries.
    package static func binaries() -> String? {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        return versions.compactMap(Int.init).sorted().last.map { "/usr/lib/postgresql/\($0)/bin" }
            .flatMap { FileManager.default.isExecutableFile(atPath: $0 + "/initdb") ? $0 : nil }
    }

    private struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `text` as one single-quoted `/bin/sh` word.
    package static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs a command through a shell, its output in a file, and waits for it with `waitpid`. (Not `Process`:
    /// the server `pg_ctl start` leaves running inherits the descriptor `Process` watches, so it would never return.)
    package static func run(_ executable: String, _ arguments: [String], asPostgres: Bool = false) throws {
        let quoted = ([executable] + arguments).map(shellQuoted)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("strata-pg-\(UUID().uuidString).out")
            .path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let command =
            (asPostgres ? "/usr/sbin/runuser -u postgres -- " : "") + quoted.joined(separator: " ")
            + " </dev/null >'\(log)' 2>&1"
        guard let pid = spawnShell(command) else {
            throw Failure(description: "could not run \(executable)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "\(executable) failed (status \(status)): \(text)")
        }
    }

    /// Starts `command` through bash, with no descriptor of this process but standard input, output and error;
    /// `nil` when it can't be started.
    ///
    /// `posix_spawn` passes the child every descriptor not marked close-on-exec, and the pipes `Process` and
    /// `Pipe` make while other tests run are not: a server or watcher started here would hold the write end of
    /// another test's output pipe for as long as it runs, and that test would wait for the end of its output
    /// forever. So the shell closes every inherited descriptor above 2 before it runs the command (bash, because
    /// `sh` redirects only descriptors 0 to 9).
    ///
    /// A child also inherits the signal mask of the thread that spawns it, and the threads tests run on block
    /// nearly every signal: a PgBouncer started from one never saw the `SIGTERM` meant to stop it, and outlived
    /// the test process. So the child starts with no signal blocked and every signal's default action.
    private static func spawnShell(_ command: String) -> pid_t? {
        let closeInherited =
            "for fd in /proc/$$/fd/*; do fd=${fd##*/}; [ \"$fd\" -gt 2 ] && eval \"exec $fd>&-\"; done 2>/dev/null; "
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] =
            ["/bin/bash", "-c", closeInherited + command].map { (text: String) in strdup(text) } + [nil]
        defer { for argument in argv { free(argument) } }
        var attributes = posix_spawnattr_t()
        guard posix_spawnattr_init(&attributes) == 0 else { return nil }
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&unblocked)
        sigfillset(&defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return posix_spawn(&pid, "/bin/bash", nil, &attributes, argv, environ) == 0 ? pid : nil
    }

    /// A port nothing listens on now: the kernel's choice for a socket bound to port 0.
    package static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length)
                return getsockname(descriptor, pointer, &length)
            }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The schemas the suite created, dropped at exit (a server given by `STRATA_POSTGRES_URL` may outlive the run).
    nonisolated(unsafe) private static var schemas: [String] = []
    private static let schemasLock = NSLock()

    /// Drops `name` when the process exits.
    package static func dropAtExit(_ name: String) {
        schemasLock.withLock {
            if schemas.isEmpty {
                atexit {
                    guard let url = PostgresTestServer.url, PostgresTestServer.directory == nil,
                        let connection = try? PostgresConnection(conninfo: url.absoluteString)
                    else { return }
                    for name in PostgresTestServer.schemasLock.withLock({ PostgresTestServer.schemas }) {
                        try? connection.execute("DROP SCHEMA IF EXISTS \"\(name)\" CASCADE")
                    }
                }
            }
            schemas.append(name)
        }
    }

    /// A connection of its own to the test server whose `search_path` is a new schema named after `prefix`
    /// (dropped at exit); throws when there is no server.
    package static func connectionInNewSchema(_ prefix: String) throws -> PostgresConnection {
        let url = try requiredURL()
        let schema = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        dropAtExit(schema)
        try PostgresConnection(conninfo: url.absoluteString).execute("CREATE SCHEMA IF NOT EXISTS \"\(schema)\"")
        return try PostgresConnection(conninfo: url.absoluteString, settings: ["SET search_path TO \"\(schema)\""])
    }
}
