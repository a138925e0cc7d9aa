extension Application {
    /// A value an ``Application`` creates once and hands to everyone who asks for it.
    ///
    /// You don't create a `Dependency` directly: declare a computed property that returns
    /// ``Application/dependency(_:feature:id:fileID:function:line:column:)`` and read it with
    /// ``Application/dependency(_:fileID:function:line:column:)``.
    ///
    /// ```swift
    /// extension Application {
    ///     var clock: Dependency<any Clock<Duration>> { dependency(ContinuousClock()) }
    /// }
    /// ```
    public struct Dependency<Value> {
        /// Where the value is stored in its container.
        public let scope: Scope
        /// The value, or the newest override of it.
        public let value: Value

        init(scope: Scope, value: Value) {
            self.scope = scope
            self.value = value
        }

        /// The key the value is cached and overridden under.
        var key: CacheKey { CacheKey(scope: scope, type: Value.self) }
    }
}

extension Application.Dependency: Sendable where Value: Sendable {}
