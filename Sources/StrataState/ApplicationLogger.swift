/// Receives the log entries of an ``Application``.
///
/// Replace `Application.logger` to send entries elsewhere, or to capture them in tests:
///
/// ```swift
/// final class Recorder: ApplicationLogger {
///     let entries = Mutex<[Application.LogEntry]>([])
///     func log(_ entry: Application.LogEntry) { entries.withLock { $0.append(entry) } }
/// }
///
/// let app = Application()
/// app.logger = recorder
/// app.isLoggingEnabled = true
/// ```
public protocol ApplicationLogger: Sendable {
    /// Handles one entry. Called synchronously on the main actor; return quickly.
    func log(_ entry: Application.LogEntry)
}
