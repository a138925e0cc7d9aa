extension Application {
    /// Declares a dependency: the value this container creates once and returns on every read.
    ///
    /// Call it from a computed property in an extension. `value` runs the first time the
    /// property is read on this container; later reads return the same value (or the newest
    /// override of it).
    ///
    /// ```swift
    /// extension Application {
    ///     var networkService: Dependency<NetworkService> {
    ///         dependency(NetworkService(), feature: "App", id: "network")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - value: Creates the value; evaluated at most once per container.
    ///   - feature: Groups related values in log entries; `"App"` by default.
    ///   - id: The value's identifier. When omitted it is derived from the call site, so each
    ///     declaration gets its own. Give one explicitly to share a value between declarations.
    ///   - fileID: The declaring file; leave the default.
    ///   - function: The declaring function or property; leave the default.
    ///   - line: The declaring line; leave the default.
    ///   - column: The declaring column; leave the default.
    /// - Returns: The dependency, holding the cached or overriding value.
    public func dependency<Value>(
        _ value: @autoclosure () -> Value,
        feature: String = "App",
        id: String? = nil,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> Dependency<Value> {
        let scope = Self.scope(
            feature: feature, id: id, fileID: fileID, function: function, line: line, column: column
        )
        let key = CacheKey(scope: scope, type: Value.self)
        if let overriding = overridingValue(for: key, as: Value.self) {
            return Dependency(scope: scope, value: overriding)
        }
        let resolved = cachedValue(for: key) {
            log(
                .debug, "Creating dependency \(scope) (\(Value.self))", fileID: fileID, function: function, line: line,
                column: column)
            return value()
        }
        return Dependency(scope: scope, value: resolved)
    }

    /// Reads a dependency from ``shared``.
    ///
    /// ```swift
    /// let service = Application.dependency(\.networkService)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property declaring the dependency.
    ///   - fileID: The reading file, for log entries; leave the default.
    ///   - function: The reading function, for log entries; leave the default.
    ///   - line: The reading line, for log entries; leave the default.
    ///   - column: The reading column, for log entries; leave the default.
    /// - Returns: The dependency's current value in ``shared``.
    public static func dependency<Value>(
        _ keyPath: KeyPath<Application, Dependency<Value>>,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> Value {
        let application = shared
        let dependency = application[keyPath: keyPath]
        application.log(
            .debug, "Reading dependency \(dependency.scope)", fileID: fileID, function: function, line: line,
            column: column)
        return dependency.value
    }
}
