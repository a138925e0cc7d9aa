import Synchronization

/// Something that refreshes when a container's store changes: a `ResultsObserver`.
package protocol LiveChangeSubscriber: AnyObject, Sendable {
    /// Handles the changes saved since the last delivery, merged into one event.
    @MainActor func receiveStoreChanges(_ event: StoreChangeEvent)
}

/// A container's switchboard for live results: saves post events here, and it decides which subscribers are
/// affected and delivers each of them one coalesced event on the main actor.
///
/// Every save between two deliveries to a subscriber is merged into one pending event, so a burst of saves
/// causes one refresh. Subscribers are held weakly; one that is freed is forgotten.
package final class LiveChangeCenter: Sendable {
    private struct Subscription {
        weak var subscriber: (any LiveChangeSubscriber)?
        /// The entities whose changes concern the subscriber: its own, and those its predicate or sort reads
        /// through relationships.
        var entityNames: Set<String>
        /// The merged event waiting for delivery; non-nil while a delivery is scheduled.
        var pending: StoreChangeEvent?
    }

    private struct State {
        var subscriptions: [UInt64: Subscription] = [:]
        var nextIdentifier: UInt64 = 0
        var nextSerial: UInt64 = 0
        var isMonitoringStore = false
    }

    private let state = Mutex(State())

    /// Creates a center with no subscribers.
    package init() {}

    /// Starts delivering changes to `entityName` to `subscriber`, and watches `store` for commits by other
    /// processes while anyone subscribes.
    /// - Returns: the token to pass to `unsubscribe(_:)`.
    package func subscribe(_ subscriber: any LiveChangeSubscriber, entityName: String, store: any DataStore) -> UInt64 {
        subscribe(subscriber, entityNames: [entityName], store: store)
    }

    /// Starts delivering changes to any of `entityNames` to `subscriber`, and watches `store` for commits by other
    /// processes while anyone subscribes.
    /// - Returns: the token to pass to `unsubscribe(_:)` and `update(_:entityNames:)`.
    package func subscribe(_ subscriber: any LiveChangeSubscriber, entityNames: Set<String>, store: any DataStore) -> UInt64 {
        let (identifier, startsMonitoring) = state.withLock { state in
            state.nextIdentifier += 1
            state.subscriptions[state.nextIdentifier] = Subscription(subscriber: subscriber, entityNames: entityNames)
            let starts = !state.isMonitoringStore && ExternalChangeMonitor.canMonitor(store)
            if starts { state.isMonitoringStore = true }
            return (state.nextIdentifier, starts)
        }
        if startsMonitoring { ExternalChangeMonitor.start(store, center: self) }
        return identifier
    }

    /// Changes which entities concern a subscription (after its predicate or sort changed).
    package func update(_ identifier: UInt64, entityNames: Set<String>) {
        state.withLock { $0.subscriptions[identifier]?.entityNames = entityNames }
    }

    /// Stops delivering to a subscription.
    package func unsubscribe(_ identifier: UInt64) {
        state.withLock { _ = $0.subscriptions.removeValue(forKey: identifier) }
    }

    /// The number of live subscriptions.
    package var subscriberCount: Int {
        state.withLock { state in state.subscriptions.values.count { $0.subscriber != nil } }
    }

    /// Records a change for every affected subscriber and schedules one delivery for each that has none pending.
    ///
    /// The event is only made when somebody subscribes: a save with no live results to refresh doesn't gather
    /// the identifiers of its models into sets.
    package func post(_ makeEvent: @autoclosure () -> StoreChangeEvent) {
        let hasSubscribers = state.withLock { state in
            if state.subscriptions.isEmpty { state.nextSerial += 1 }
            return !state.subscriptions.isEmpty
        }
        guard hasSubscribers else { return }
        let event = makeEvent()
        let scheduled: [UInt64] = state.withLock { state in
            state.nextSerial += 1
            var event = event
            event.serial = state.nextSerial
            var scheduled: [UInt64] = []
            for (identifier, subscription) in state.subscriptions where subscription.entityNames.contains(where: event.touches) {
                guard subscription.subscriber != nil else {
                    state.subscriptions[identifier] = nil
                    continue
                }
                if let pending = subscription.pending {
                    state.subscriptions[identifier]?.pending = pending.merged(with: event)
                } else {
                    state.subscriptions[identifier]?.pending = event
                    scheduled.append(identifier)
                }
            }
            return scheduled
        }
        guard !scheduled.isEmpty else { return }
        // One main-actor job delivers to every affected subscriber.
        Task { @MainActor in
            for identifier in scheduled { self.deliver(identifier) }
        }
    }

    @MainActor private func deliver(_ identifier: UInt64) {
        let delivery: (subscriber: any LiveChangeSubscriber, event: StoreChangeEvent)? = state.withLock { state in
            guard let subscription = state.subscriptions[identifier], let event = subscription.pending else { return nil }
            state.subscriptions[identifier]?.pending = nil
            guard let subscriber = subscription.subscriber else { return nil }
            return (subscriber, event)
        }
        guard let delivery else { return }
        delivery.subscriber.receiveStoreChanges(delivery.event)
    }

    /// Whether the store should still be watched; clears the flag (so the watcher stops) when nobody subscribes.
    package func keepsMonitoringStore() -> Bool {
        state.withLock { state in
            state.subscriptions = state.subscriptions.filter { $0.value.subscriber != nil }
            if state.subscriptions.isEmpty { state.isMonitoringStore = false }
            return state.isMonitoringStore
        }
    }
}
