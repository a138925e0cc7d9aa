extension Application {
    /// Turns debug and info logging of ``shared`` on or off; error entries are always delivered.
    ///
    /// ```swift
    /// Application.logging(isEnabled: true)
    /// ```
    ///
    /// - Parameter isEnabled: Whether debug and info entries reach the logger.
    /// - Returns: `Application.self`, so calls can be chained.
    @discardableResult
    public static func logging(isEnabled: Bool) -> Application.Type {
        shared.isLoggingEnabled = isEnabled
        return self
    }

    /// The logger of ``shared``.
    ///
    /// ```swift
    /// Application.logger = MyLogger()
    /// ```
    public static var logger: any ApplicationLogger {
        get { shared.logger }
        set { shared.logger = newValue }
    }

    /// Sends an entry to ``logger``, if logging is enabled or the entry is an error.
    ///
    /// `message` is only built when the entry is delivered. Code built on this container
    /// (ModelState's tolerant mutators, for instance) reports swallowed errors through here.
    package func log(
        _ level: LogEntry.Level,
        _ message: @autoclosure () -> String,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) {
        guard isLoggingEnabled || level == .error else {
            return
        }
        logger.log(
            LogEntry(
                level: level,
                message: message(),
                fileID: "\(fileID)",
                function: "\(function)",
                line: line,
                column: column
            )
        )
    }
}
