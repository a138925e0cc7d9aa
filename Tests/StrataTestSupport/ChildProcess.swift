import Foundation

/// A child process run to its end: how it ended and what it wrote.
package struct ChildProcess: Sendable {
    /// Its exit status, or the signal that ended it.
    package let terminationStatus: Int32
    /// Whether it exited or was ended by a signal.
    package let terminationReason: Process.TerminationReason
    /// Its standard output and standard error, interleaved.
    package let output: String
    /// Its process ID while it ran.
    package let processIdentifier: Int32

    /// Runs `executable` with `arguments` and waits for it to end, on a thread of its own (``onOwnThread(_:)``) so
    /// that the wait holds no thread of the cooperative pool. Throws what `Process.run()` throws when it can't start.
    package static func run(_ executable: URL, _ arguments: [String]) async throws -> ChildProcess {
        try await onOwnThread {
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            process.standardInput = FileHandle.nullDevice
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let exit = process.waitForExit()
            return ChildProcess(
                terminationStatus: exit.status, terminationReason: exit.reason, output: output,
                processIdentifier: process.processIdentifier)
        }
    }
}
