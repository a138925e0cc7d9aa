extension Application {
    /// Identifies one cached value: its scope plus its type, so a reused id with another type
    /// gets its own entry instead of a failed cast.
    package struct CacheKey: Hashable, Sendable {
        /// The declaration's scope.
        package let scope: Scope
        /// The stored value's type.
        package let valueType: ObjectIdentifier

        /// Creates the key for values of `type` in `scope`.
        package init<Value>(scope: Scope, type: Value.Type) {
            self.scope = scope
            self.valueType = ObjectIdentifier(type)
        }
    }

    /// Returns the value cached under `key`, creating and caching it with `make` on the first call.
    ///
    /// This is the container's single keyed cache: dependencies use it, and other kinds of state
    /// (ModelState's per-container bookkeeping, for instance) can store their values here too.
    package func cachedValue<Value>(for key: CacheKey, make: () -> Value) -> Value {
        if let cached = cache[key] as? Value {
            return cached
        }
        let value = make()
        cache[key] = value
        return value
    }

    /// Forgets the value cached under `key`, so the next read creates it again.
    ///
    /// - Returns: Whether a value was cached.
    @discardableResult
    package func removeCachedValue(for key: CacheKey) -> Bool {
        cache.removeValue(forKey: key) != nil
    }
}
