extension Application {
    /// One message an ``Application`` hands to its ``ApplicationLogger``.
    public struct LogEntry: Sendable, Equatable, CustomStringConvertible {
        /// How important an entry is.
        public enum Level: Int, Sendable, Comparable, CustomStringConvertible {
            /// Routine detail: dependencies created and read.
            case debug
            /// Notable events: overrides added and removed.
            case info
            /// Failures the container reported instead of throwing; always delivered.
            case error

            /// Orders levels from ``debug`` to ``error``.
            public static func < (lhs: Level, rhs: Level) -> Bool {
                lhs.rawValue < rhs.rawValue
            }

            /// The level's name: `debug`, `info` or `error`.
            public var description: String {
                switch self {
                case .debug: "debug"
                case .info: "info"
                case .error: "error"
                }
            }
        }

        /// How important the entry is.
        public let level: Level
        /// What happened.
        public let message: String
        /// The file the entry is about, as `#fileID` spells it.
        public let fileID: String
        /// The function or property the entry is about.
        public let function: String
        /// The line the entry is about.
        public let line: Int
        /// The column the entry is about.
        public let column: Int

        /// Creates an entry; loggers under test can use it to build expected values.
        public init(level: Level, message: String, fileID: String, function: String, line: Int, column: Int) {
            self.level = level
            self.message = message
            self.fileID = fileID
            self.function = function
            self.line = line
            self.column = column
        }

        /// `[level] message (fileID:line:column)`.
        public var description: String {
            "[\(level)] \(message) (\(fileID):\(line):\(column))"
        }
    }
}
