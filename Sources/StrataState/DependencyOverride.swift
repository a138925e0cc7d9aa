extension Application {
    /// Keeps a dependency overridden until it is cancelled or released.
    ///
    /// Returned by `Application.override(_:with:)`. Hold on to it
    /// for as long as the override should last:
    ///
    /// ```swift
    /// let token = Application.override(\.networkService, with: StubNetworkService())
    /// defer { token.cancel() }
    /// ```
    ///
    /// Cancelling removes exactly this override: other overrides of the same dependency stay in
    /// place, whatever order they end in, and the newest remaining one (or the original value)
    /// is read again.
    ///
    /// ## Releasing instead of cancelling
    ///
    /// Dropping the last reference also removes the override. The deinitializer is isolated to
    /// the main actor (`isolated deinit`), so where the last release happens decides the timing:
    /// - on the main actor the removal runs immediately, inside the release;
    /// - anywhere else the runtime schedules the deinitializer on the main actor, so the removal
    ///   runs shortly after and a read made before then may still see the overriding value.
    ///
    /// The runtime checks the current *executor*, not the thread. That matters on Linux, where
    /// the main actor is often served by a thread other than the process's first one, so a
    /// `Thread.isMainThread` test guarding `MainActor.assumeIsolated` would take the
    /// asynchronous path in exactly the cases that should be immediate.
    ///
    /// Call ``cancel()`` when the timing matters.
    @MainActor
    public final class DependencyOverride {
        private let application: Application
        private let key: CacheKey
        private let id: UInt64

        init(application: Application, key: CacheKey, id: UInt64) {
            self.application = application
            self.key = key
            self.id = id
        }

        /// Removes this override now. Calling it again, or releasing the token afterwards, does nothing.
        public func cancel() {
            application.removeOverride(id, for: key)
        }

        isolated deinit {
            application.removeOverride(id, for: key)
        }
    }
}
