import Foundation

/// The default ``ApplicationLogger``: writes each entry as one line to standard error.
///
/// Lines look like `[StrataState] [debug] Creating dependency App.network (NetworkService) (MyApp/Dependencies.swift:12:9)`.
public struct StandardErrorLogger: ApplicationLogger {
    /// Creates the logger.
    public init() {}

    /// Writes `entry` to standard error.
    public func log(_ entry: Application.LogEntry) {
        FileHandle.standardError.write(Data("[StrataState] \(entry)\n".utf8))
    }
}
