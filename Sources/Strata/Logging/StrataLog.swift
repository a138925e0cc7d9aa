import Foundation
import Synchronization

/// Where Strata reports what an app may want in its own log: PostgreSQL saves run again after losing a race,
/// dropped connections and `LISTEN` reconnects, migrations applied to a store, and configuration it accepts but
/// cannot honour (CloudKit sync).
///
/// By default only warnings and errors are written, one line each, to standard error (the CloudKit notice is the one
/// Strata emits); everything else is dropped. Point the log at your own logger once at startup. With swift-log:
///
/// ```swift
/// import Logging
/// import Strata
///
/// let logger = Logger(label: "strata")
/// StrataLog.handler = { entry in
///     logger.log(level: Logger.Level(rawValue: entry.level.rawValue) ?? .info, "\(entry.message)",
///                metadata: entry.metadata.mapValues { .string($0) }, source: entry.category,
///                file: entry.file, function: entry.function, line: entry.line)
/// }
/// ```
///
/// Handlers run synchronously on the thread that logs, which may be a store's background thread: keep them short
/// and thread-safe.
public enum StrataLog {
    /// How much an entry matters, the levels of swift-log's `Logger.Level` (same raw values).
    public enum Level: String, Sendable, Hashable, CaseIterable, Comparable {
        /// Step-by-step detail.
        case trace
        /// Detail useful when debugging, such as a save run again after a serialization failure.
        case debug
        /// Normal events worth recording, such as a migration applied to a store.
        case info
        /// Normal but significant events, such as a dropped connection replaced by a new one.
        case notice
        /// Something an app probably wants to fix, such as configuration Strata accepts but does not honour.
        case warning
        /// An operation failed.
        case error
        /// The process cannot continue as intended.
        case critical

        /// Whether `lhs` matters less than `rhs` (`.debug < .info`).
        public static func < (lhs: Level, rhs: Level) -> Bool {
            lhs.severity < rhs.severity
        }

        private var severity: Int { Self.allCases.firstIndex(of: self) ?? 0 }
    }

    /// Receives every entry Strata logs.
    public typealias Handler = @Sendable (Entry) -> Void

    private static let currentHandler = Mutex<Handler>(standardError(minimumLevel: .warning))

    /// The function every entry goes to; by default ``standardError(minimumLevel:)`` at `.warning`. Set it to
    /// `{ _ in }` to silence Strata completely.
    public static var handler: Handler {
        get { currentHandler.withLock { $0 } }
        set { currentHandler.withLock { $0 = newValue } }
    }

    /// A handler writing entries at `minimumLevel` or above to standard error, one line each:
    /// `Strata [warning] postgres: message (key=value, …)`.
    public static func standardError(minimumLevel: Level) -> Handler {
        { entry in
            guard entry.level >= minimumLevel else { return }
            FileHandle.standardError.write(Data("\(entry)\n".utf8))
        }
    }

    /// Sends an entry to ``handler``.
    package static func log(
        _ level: Level, _ message: String, metadata: [String: String] = [:], category: String,
        file: String = #fileID, function: String = #function, line: UInt = #line
    ) {
        let entry = Entry(
            level: level, message: message, metadata: metadata, category: category, file: file, function: function,
            line: line)
        handler(entry)
    }
}
