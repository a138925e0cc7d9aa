import Foundation

extension Process {
    /// How a child process ended.
    package struct Exit: Sendable, Equatable {
        /// Its exit status, or the signal that ended it.
        package let status: Int32
        /// Whether it exited or was ended by a signal.
        package let reason: TerminationReason

        /// An end with `status` for `reason`.
        package init(status: Int32, reason: TerminationReason) {
            self.status = status
            self.reason = reason
        }
    }

    /// Waits for the process to end, and how it ended.
    ///
    /// Use it instead of `waitUntilExit()`: Foundation on Linux learns of a child's end from `SIGCHLD`, and when
    /// several children end at once (the suite runs many in parallel) it can miss one, whose `waitUntilExit()`
    /// then never returns while the child sits as a zombie. After two seconds without news, the child is reaped
    /// here and its status read from `waitpid`.
    package func waitForExit() -> Exit {
        let started = Date()
        while isRunning {
            if Date().timeIntervalSince(started) > 2 {
                var status: Int32 = 0
                if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
                    let signal = status & 0x7f
                    if signal == 0 { return Exit(status: (status >> 8) & 0xff, reason: .exit) }
                    return Exit(status: signal, reason: .uncaughtSignal)
                }
            }
            usleep(1_000)
        }
        return Exit(status: terminationStatus, reason: terminationReason)
    }
}
