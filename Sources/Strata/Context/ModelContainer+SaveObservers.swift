import Synchronization

/// Told of every save a container's contexts make, right after it commits, on the saving context's thread — as
/// GRDB's `TransactionObserver` is told of commits. Live results hear of saves through it, so a context knows
/// nothing of the layers that watch it.
package protocol ModelContainerSaveObserver: AnyObject, Sendable {
    /// A context of the container saved: the identifiers of the models it inserted, updated and deleted (an
    /// upsert reports the row it updated as inserted), and the saving context (`origin`).
    func containerDidSave(inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
                          deleted: [PersistentIdentifier], origin: ObjectIdentifier)
}

/// The save observers attached to one container, at most one of each type, attached on first use.
package final class ModelContainerSaveObservers: Sendable {
    private let observers = Mutex<[any ModelContainerSaveObserver]>([])

    package init() {}

    /// The attached observer of type `Observer`; `make` makes and attaches it when there is none yet.
    package func observer<Observer: ModelContainerSaveObserver>(_ type: Observer.Type,
                                                                attaching make: () -> Observer) -> Observer {
        observers.withLock { observers in
            if let attached = observers.lazy.compactMap({ $0 as? Observer }).first { return attached }
            let made = make()
            observers.append(made)
            return made
        }
    }

    /// Tells every attached observer of a save.
    func containerDidSave(inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
                          deleted: [PersistentIdentifier], origin: ObjectIdentifier) {
        let observers = observers.withLock { $0 }
        for observer in observers {
            observer.containerDidSave(inserted: inserted, updated: updated, deleted: deleted, origin: origin)
        }
    }
}
