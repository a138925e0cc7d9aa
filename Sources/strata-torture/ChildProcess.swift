import Foundation

/// Starting this same executable as a child with another subcommand, and signalling it.
enum ChildProcess {
    /// The running executable's path.
    static var executable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }

    /// Starts `strata-torture <arguments>`; its standard input reads from `input` and its standard error goes to
    /// `errorLog` when given.
    static func start(
        _ arguments: [String], input: Pipe? = nil, output: FileHandle? = nil, errorLog: FileHandle? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let input { process.standardInput = input }
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = errorLog ?? FileHandle.standardError
        try process.run()
        return process
    }

    /// Stops `process` (SIGSTOP) and waits until the kernel reports it stopped, so its files hold still.
    static func freeze(_ process: Process) -> Bool {
        kill(process.processIdentifier, SIGSTOP)
        for _ in 0..<2_000 {
            if state(of: process.processIdentifier) == "T" { return true }
            if !process.isRunning { return false }
            usleep(100)
        }
        return false
    }

    /// Lets a frozen process run on.
    static func thaw(_ process: Process) {
        kill(process.processIdentifier, SIGCONT)
    }

    /// The process's state letter from `/proc/<pid>/stat` (`R`, `S`, `T`...).
    private static func state(of pid: Int32) -> Character? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
    }
}

/// A temporary directory for one run, removed unless it is kept for a failure's evidence.
struct ScratchDirectory {
    let path: String

    /// Under `STRATA_TORTURE_DIR`, else `/dev/shm` where it exists: a killed process leaves what the kernel holds
    /// for its files whatever the file system, and tmpfs makes the side log's `fsync` cost nothing.
    init(_ label: String) throws {
        let environment = ProcessInfo.processInfo.environment["STRATA_TORTURE_DIR"]
        let base =
            environment ?? (FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory())
        path = (base.hasSuffix("/") ? base : base + "/") + "strata-torture-\(label)-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
