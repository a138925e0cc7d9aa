import Synchronization

/// Something that refreshes when a container's store changes: a `ResultsObserver`.
///
/// A subscriber belongs to one actor (the isolation it was created in) and is only ever called there.
package protocol LiveChangeSubscriber: AnyObject {
    /// Handles the changes saved since the last delivery, merged into one event. Called on the actor the
    /// subscriber subscribed with.
    func receiveStoreChanges(_ event: StoreChangeEvent)
}

/// A container's switchboard for live results: saves post events here, and it decides which subscribers are
/// affected and delivers each of them one coalesced event on the actor it subscribed with.
///
/// Every save between two deliveries to a subscriber is merged into one pending event, so a burst of saves
/// causes one refresh. Subscribers are held weakly; one that is freed is forgotten.
package final class LiveChangeCenter: Sendable {
    private struct Subscription {
        var subscriber: SubscriberReference
        /// The actor the subscriber belongs to, where its deliveries run.
        let actor: any Actor
        /// The entities whose changes concern the subscriber: its own, and those its predicate or sort reads
        /// through relationships.
        var entityNames: Set<String>
        /// The merged event waiting for delivery; non-nil while a delivery is scheduled.
        var pending: StoreChangeEvent?
    }

    /// A weak reference to a subscriber that the center may hold and pass between threads: it is only ever
    /// dereferenced to call the subscriber on its own actor (see `deliver(_:)`), which is what makes the
    /// unchecked `Sendable` sound.
    private struct SubscriberReference: @unchecked Sendable {
        weak var subscriber: (any LiveChangeSubscriber)?
        var isAlive: Bool { subscriber != nil }
    }

    private struct State {
        var subscriptions: [UInt64: Subscription] = [:]
        var nextIdentifier: UInt64 = 0
        var nextSerial: UInt64 = 0
        var isMonitoringStore = false
        /// Counts the watches started, so a watcher told to stop doesn't carry on beside a newer one.
        var monitorGeneration: UInt64 = 0
        /// Whether the store turned out to have no watcher (nobody else can write it).
        var storeIsUnwatched = false
    }

    private let state = Mutex(State())

    /// Creates a center with no subscribers.
    package init() {}

    /// Starts delivering changes to `entityName` to `subscriber`, and watches `store` for commits by other
    /// processes while anyone subscribes.
    /// - Returns: the token to pass to `unsubscribe(_:)`.
    package func subscribe(
        _ subscriber: any LiveChangeSubscriber, entityName: String, store: any PersistentStore,
        actor: any Actor = MainActor.shared
    ) -> UInt64 {
        subscribe(subscriber, entityNames: [entityName], store: store, actor: actor)
    }

    /// Starts delivering changes to any of `entityNames` to `subscriber` on `actor`, and watches `store` for
    /// commits by other processes while anyone subscribes.
    /// - Returns: the token to pass to `unsubscribe(_:)` and `update(_:entityNames:)`.
    package func subscribe(
        _ subscriber: any LiveChangeSubscriber, entityNames: Set<String>, store: any PersistentStore,
        actor: any Actor = MainActor.shared
    ) -> UInt64 {
        let reference = SubscriberReference(subscriber: subscriber)
        let (identifier, generation) = state.withLock { state -> (UInt64, UInt64?) in
            state.nextIdentifier += 1
            state.subscriptions[state.nextIdentifier] = Subscription(
                subscriber: reference, actor: actor, entityNames: entityNames)
            guard !state.isMonitoringStore, !state.storeIsUnwatched else { return (state.nextIdentifier, nil) }
            state.isMonitoringStore = true
            state.monitorGeneration += 1
            return (state.nextIdentifier, state.monitorGeneration)
        }
        // A container over several stores watches each of them.
        if let generation,
            !store.componentStores.map({ ExternalChangeMonitor.start($0, center: self, generation: generation) })
                .contains(true)
        {
            state.withLock { state in
                state.storeIsUnwatched = true
                state.isMonitoringStore = false
            }
        }
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
        state.withLock { state in state.subscriptions.values.count { $0.subscriber.isAlive } }
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
        let scheduled: [(identifier: UInt64, actor: any Actor)] = state.withLock { state in
            state.nextSerial += 1
            var event = event
            event.serial = state.nextSerial
            var scheduled: [(identifier: UInt64, actor: any Actor)] = []
            for (identifier, subscription) in state.subscriptions
            where subscription.entityNames.contains(where: event.touches) {
                guard subscription.subscriber.isAlive else {
                    state.subscriptions[identifier] = nil
                    continue
                }
                if let pending = subscription.pending {
                    state.subscriptions[identifier]?.pending = pending.merged(with: event)
                } else {
                    state.subscriptions[identifier]?.pending = event
                    scheduled.append((identifier, subscription.actor))
                }
            }
            return scheduled
        }
        guard !scheduled.isEmpty else { return }
        // One job per actor delivers to every affected subscriber of that actor; the main actor's is enqueued on
        // it directly.
        var byActor: [ObjectIdentifier: (actor: any Actor, identifiers: [UInt64])] = [:]
        var actorOrder: [ObjectIdentifier] = []
        for (identifier, actor) in scheduled {
            let key = ObjectIdentifier(actor)
            if byActor[key] == nil {
                byActor[key] = (actor, [])
                actorOrder.append(key)
            }
            byActor[key]?.identifiers.append(identifier)
        }
        for key in actorOrder {
            guard let (actor, identifiers) = byActor[key] else { continue }
            if actor === MainActor.shared {
                Task { @MainActor in
                    for identifier in identifiers { self.deliver(identifier) }
                }
            } else {
                Task { await Self.deliver(identifiers, from: self, on: actor) }
            }
        }
    }

    /// Delivers to subscribers of `actor`, running on it.
    private static func deliver(_ identifiers: [UInt64], from center: LiveChangeCenter, on actor: isolated any Actor) {
        for identifier in identifiers { center.deliver(identifier) }
    }

    /// Hands a subscription its pending event. Runs on the subscription's actor, the only place its subscriber
    /// is called.
    private func deliver(_ identifier: UInt64) {
        let delivery: (subscriber: SubscriberReference, event: StoreChangeEvent)? = state.withLock { state in
            guard let subscription = state.subscriptions[identifier], let event = subscription.pending else {
                return nil
            }
            state.subscriptions[identifier]?.pending = nil
            return (subscription.subscriber, event)
        }
        guard let delivery, let subscriber = delivery.subscriber.subscriber else { return }
        subscriber.receiveStoreChanges(delivery.event)
    }

    /// Whether the store should still be watched by the `generation`-th watch; clears the flag (so the watcher
    /// stops) when nobody subscribes.
    package func keepsMonitoringStore(generation: UInt64) -> Bool {
        state.withLock { state in
            guard generation == state.monitorGeneration else { return false }
            state.subscriptions = state.subscriptions.filter { $0.value.subscriber.isAlive }
            if state.subscriptions.isEmpty { state.isMonitoringStore = false }
            return state.isMonitoringStore
        }
    }
}
