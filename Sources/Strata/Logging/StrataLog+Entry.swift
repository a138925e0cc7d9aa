extension StrataLog {
    /// One thing Strata logged.
    public struct Entry: Sendable, CustomStringConvertible {
        /// How much it matters.
        public let level: Level
        /// What happened, in a sentence.
        public let message: String
        /// The details a log can index: the store, the attempt, the error, … (passwords never appear).
        public let metadata: [String: String]
        /// The part of Strata it comes from: `postgres`, `migration`, `configuration`.
        public let category: String
        /// The source file that logged it (`#fileID`).
        public let file: String
        /// The function that logged it.
        public let function: String
        /// The line that logged it.
        public let line: UInt

        /// Creates an entry; Strata makes them as it logs, and a test of a handler can make its own.
        public init(
            level: Level, message: String, metadata: [String: String], category: String, file: String,
            function: String, line: UInt
        ) {
            self.level = level
            self.message = message
            self.metadata = metadata
            self.category = category
            self.file = file
            self.function = function
            self.line = line
        }

        /// `Strata [level] category: message (key=value, …)`, the metadata sorted by key.
        public var description: String {
            let details = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return "Strata [\(level.rawValue)] \(category): \(message)"
                + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
        }
    }
}
