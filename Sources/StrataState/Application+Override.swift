extension Application {
    /// One override of a dependency, as pushed by ``override(_:with:fileID:function:line:column:)``.
    struct OverrideLayer {
        let id: UInt64
        let value: Any
    }

    /// Replaces a dependency of ``shared`` with `value` until the returned token is cancelled or released.
    ///
    /// Use it in tests and previews:
    ///
    /// ```swift
    /// let token = Application.override(\.networkService, with: StubNetworkService())
    /// defer { token.cancel() }
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property declaring the dependency.
    ///   - value: The value every read returns while the override lasts.
    ///   - fileID: The overriding file, for log entries; leave the default.
    ///   - function: The overriding function, for log entries; leave the default.
    ///   - line: The overriding line, for log entries; leave the default.
    ///   - column: The overriding column, for log entries; leave the default.
    /// - Returns: The token that keeps the override in place; see ``DependencyOverride``.
    public static func override<Value>(
        _ keyPath: KeyPath<Application, Dependency<Value>>,
        with value: Value,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> DependencyOverride {
        shared.override(keyPath, with: value, fileID: fileID, function: function, line: line, column: column)
    }

    /// Replaces a dependency of this container with `value` until the returned token is cancelled or released.
    ///
    /// Overriding reads the declaration once to learn its scope, so the original value is created
    /// if it had not been yet; it comes back when the override ends.
    ///
    /// ```swift
    /// let app = Application()
    /// let token = app.override(\.networkService, with: StubNetworkService())
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The property declaring the dependency.
    ///   - value: The value every read returns while the override lasts.
    ///   - fileID: The overriding file, for log entries; leave the default.
    ///   - function: The overriding function, for log entries; leave the default.
    ///   - line: The overriding line, for log entries; leave the default.
    ///   - column: The overriding column, for log entries; leave the default.
    /// - Returns: The token that keeps the override in place; see ``DependencyOverride``.
    public func override<Value>(
        _ keyPath: KeyPath<Application, Dependency<Value>>,
        with value: Value,
        fileID: StaticString = #fileID,
        function: StaticString = #function,
        line: Int = #line,
        column: Int = #column
    ) -> DependencyOverride {
        let key = self[keyPath: keyPath].key
        let id = nextOverrideID
        nextOverrideID += 1
        overrides[key, default: []].append(OverrideLayer(id: id, value: value))
        log(.info, "Overriding dependency \(key.scope)", fileID: fileID, function: function, line: line, column: column)
        return DependencyOverride(application: self, key: key, id: id)
    }

    /// The newest overriding value for `key`, if any override is active.
    func overridingValue<Value>(for key: CacheKey, as type: Value.Type) -> Value? {
        overrides[key]?.last?.value as? Value
    }

    /// Removes the override `id` of `key`; does nothing if it was already removed.
    func removeOverride(_ id: UInt64, for key: CacheKey) {
        guard var layers = overrides[key], let index = layers.firstIndex(where: { $0.id == id }) else {
            return
        }
        layers.remove(at: index)
        overrides[key] = layers.isEmpty ? nil : layers
        log(.info, "Removed override of dependency \(key.scope)")
    }
}
