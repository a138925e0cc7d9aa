import Synchronization

/// Told of every save a container's contexts make, right after it commits, on the saving context's thread — as
/// GRDB's `TransactionObserver` is told of commits. Live results hear of saves through it, so a context knows
/// nothing of the layers that watch it.
package protocol ModelContainerSaveObserver: AnyObject, Sendable {
    /// A context of the container saved: the identifiers of the models it inserted, updated and deleted (an
    /// upsert reports the row it updated as inserted), the saving context (`origin`), and, asked for only when
    /// needed, the names of the properties the updates wrote by entity name (`nil` when any property may have
    /// changed in the store).
    func containerDidSave(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
        deleted: [PersistentIdentifier], origin: ObjectIdentifier,
        updatedProperties: () -> [String: Set<String>]?)
    /// The stored models of the entities named changed in a way no save describes (the container's store was
    /// erased): whatever shows them must read them again.
    func containerDidInvalidate(entityNames: Set<String>)
}

/// The save observers attached to one container, at most one of each type, attached on first use.
package final class ModelContainerSaveObservers: Sendable {
    private let observers = Mutex<[any ModelContainerSaveObserver]>([])

    package init() {}

    /// The attached observer of type `Observer`; `make` makes and attaches it when there is none yet.
    package func observer<Observer: ModelContainerSaveObserver>(
        _ type: Observer.Type,
        attaching make: () -> Observer
    ) -> Observer {
        observers.withLock { observers in
            if let attached = observers.lazy.compactMap({ $0 as? Observer }).first { return attached }
            let made = make()
            observers.append(made)
            return made
        }
    }

    /// Tells every attached observer of a save.
    func containerDidSave(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
        deleted: [PersistentIdentifier], origin: ObjectIdentifier,
        updatedProperties: () -> [String: Set<String>]?
    ) {
        forEachObserver {
            $0.containerDidSave(
                inserted: inserted, updated: updated, deleted: deleted, origin: origin,
                updatedProperties: updatedProperties)
        }
    }

    /// Tells every attached observer that the stored models of `entityNames` must be read again.
    func containerDidInvalidate(entityNames: Set<String>) {
        forEachObserver { $0.containerDidInvalidate(entityNames: entityNames) }
    }

    /// Calls `body` with each attached observer, outside the lock, so an observer may attach another.
    private func forEachObserver(_ body: (any ModelContainerSaveObserver) -> Void) {
        for observer in observers.withLock({ $0 }) { body(observer) }
    }
}
