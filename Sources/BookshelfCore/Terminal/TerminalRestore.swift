import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by SIGWINCH; the main loop redraws everything when it finds it set.
let terminalResized = Atomic<Bool>(false)

// The terminal settings to restore, written once by `Terminal.start()` before any handler is installed and read
// by the handlers below; a signal handler can only reach plain globals.
nonisolated(unsafe) private var savedSettings = termios()
nonisolated(unsafe) private var hasSavedSettings = false
// Show the cursor, reset colours, leave the alternate screen.
private let restoreSequence: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Puts the terminal back the way bookshelf found it: on normal exit, and from the handlers of SIGTERM, SIGINT,
/// SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP and SIGFPE (which then re-raise the signal with its
/// default action, so the exit status and any core dump are as before).
enum TerminalRestore {
    /// Remembers the settings to restore.
    static func save(_ settings: termios) {
        savedSettings = settings
        hasSavedSettings = true
        _ = restoreSequence.count // initialise the global now, not first inside a signal handler
    }

    /// Restores the terminal; safe to call from a signal handler (only `write` and `tcsetattr`).
    static func restoreNow() {
        restoreSequence.withUnsafeBytes { _ = write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if hasSavedSettings { tcsetattr(STDIN_FILENO, TCSAFLUSH, &savedSettings) }
    }

    /// Installs the resize and fatal-signal handlers.
    static func installSignalHandlers() {
        signal(SIGWINCH) { _ in terminalResized.store(true, ordering: .relaxed) }
        // SIGILL and SIGTRAP are how a Swift runtime trap ends the process (x86-64 and arm64).
        for fatal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGTRAP, SIGFPE] {
            signal(fatal) { number in
                TerminalRestore.restoreNow()
                signal(number, SIG_DFL)
                raise(number)
            }
        }
    }
}
