extension Application {
    /// The container for the whole process, used when no task-local container is in scope.
    private static let processWide = Application()

    /// The container that static accessors such as ``dependency(_:fileID:function:line:column:)`` read.
    ///
    /// Inside ``withShared(_:operation:)`` this is the container passed there; otherwise
    /// it is one container that lives as long as the process.
    public static var shared: Application {
        SharedScope.application ?? processWide
    }

    /// Runs `operation` with `application` as ``shared`` for the current task.
    ///
    /// The binding is task-local: concurrent tests can each scope their own container and never
    /// see one another's, and it ends when `operation` returns.
    ///
    /// ```swift
    /// let app = Application()
    /// let service = Application.withShared(app) {
    ///     Application.dependency(\.networkService)   // app's value, not the process-wide one
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - application: The container to expose as ``shared``.
    ///   - operation: The code to run against it.
    /// - Returns: Whatever `operation` returns.
    /// - Throws: Whatever `operation` throws.
    nonisolated public static func withShared<T>(
        _ application: Application,
        operation: () throws -> T
    ) rethrows -> T {
        try SharedScope.$application.withValue(application, operation: operation)
    }

    /// Runs the asynchronous `operation` with `application` as ``shared`` for the current task
    /// and the child tasks it creates.
    ///
    /// ```swift
    /// try await Application.withShared(app) {
    ///     try await viewModel.refresh()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - application: The container to expose as ``shared``.
    ///   - isolation: The actor `operation` runs on; the caller's by default.
    ///   - operation: The code to run against it.
    /// - Returns: Whatever `operation` returns.
    /// - Throws: Whatever `operation` throws.
    public static func withShared<T>(
        _ application: Application,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> T
    ) async rethrows -> T {
        try await SharedScope.$application.withValue(application, operation: operation, isolation: isolation)
    }
}

/// Holds the task-local container behind ``Application/shared``.
private enum SharedScope {
    @TaskLocal static var application: Application?
}
