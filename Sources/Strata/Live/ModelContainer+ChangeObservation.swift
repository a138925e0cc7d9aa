extension ModelContainer {
    /// A change to a container's stored models, as ``ModelContainer/observeChanges(_:)`` reports it. Saves that
    /// follow each other quickly arrive as one change.
    public struct StoreChange: Sendable {
        /// The entities whose stored models may have changed; `nil` when any of them may have (a commit made
        /// elsewhere that the store's history doesn't describe).
        public let entityNames: Set<String>?
        /// The models inserted; empty when the change doesn't say which models it touched.
        public let insertedIdentifiers: Set<PersistentIdentifier>
        /// The models whose properties changed; empty when the change doesn't say.
        public let updatedIdentifiers: Set<PersistentIdentifier>
        /// The models deleted; empty when the change doesn't say.
        public let deletedIdentifiers: Set<PersistentIdentifier>
        /// Whether a change made outside this container's contexts is included: by another container, process
        /// or machine on the same store, or announced with ``ModelContainer/notifyChanges(to:)``.
        public let includesExternalChanges: Bool
    }

    /// An observation ``ModelContainer/observeChanges(_:)`` started. It lasts until it is cancelled or released.
    public final class ChangeObservation: Sendable {
        private let center: LiveChangeCenter
        private let subscription: UInt64
        // Held here: the container's change center holds its subscribers weakly.
        private let listener: ChangeListener

        fileprivate init(center: LiveChangeCenter, subscription: UInt64, listener: ChangeListener) {
            self.center = center
            self.subscription = subscription
            self.listener = listener
        }

        /// Stops the observation: the handler is not called again.
        public func cancel() {
            center.unsubscribe(subscription)
        }

        deinit {
            center.unsubscribe(subscription)
        }
    }

    /// Calls `handler` on the main actor after the container's stored models change: a save by one of its
    /// contexts, a commit by another container, process or machine on the same store (read from the store's
    /// history, as live results read it), or ``notifyChanges(to:)``. Saves in quick succession are reported once.
    ///
    /// ```swift
    /// let observation = container.observeChanges { change in
    ///     if change.includesExternalChanges { reloadEverything() }
    /// }
    /// ```
    ///
    /// The store is watched for other writers while any observation or live result of the container lasts.
    /// - Returns: the observation; keep it as long as `handler` should be called.
    public func observeChanges(_ handler: @escaping @MainActor @Sendable (StoreChange) -> Void) -> ChangeObservation {
        let listener = ChangeListener(handler: handler)
        let subscription = liveChanges.subscribe(listener, entityNames: Set(schema.entities.map(\.name)), store: store)
        return ChangeObservation(center: liveChanges, subscription: subscription, listener: listener)
    }
}

/// Hands a change center's events to an ``ModelContainer/observeChanges(_:)`` handler, on the main actor it
/// subscribed with.
private final class ChangeListener: LiveChangeSubscriber, Sendable {
    let handler: @MainActor @Sendable (ModelContainer.StoreChange) -> Void

    init(handler: @escaping @MainActor @Sendable (ModelContainer.StoreChange) -> Void) {
        self.handler = handler
    }

    func receiveStoreChanges(_ event: StoreChangeEvent) {
        let change = ModelContainer.StoreChange(
            entityNames: event.entityNames, insertedIdentifiers: event.inserted, updatedIdentifiers: event.updated,
            deletedIdentifiers: event.deleted, includesExternalChanges: event.includesExternalChanges)
        MainActor.assumeIsolated { handler(change) }
    }
}
