/// What one or more saves changed in a container's store: the first stage of the live-results pipeline
/// (detect a change → decide who is affected → fetch → diff → notify).
///
/// Saves in the same process name the models they touched, and so do commits by other containers, processes
/// and machines read from the store's history (`ExternalChangeMonitor`). A commit the history doesn't describe
/// is only known to have happened, so it names no entity and touches every entity (`external`).
package struct StoreChangeEvent: Sendable {
    /// The entities touched; `nil` when unknown (a change made outside this container), meaning all of them.
    package var entityNames: Set<String>?
    /// Models the saves inserted (an upsert reports the row it updated).
    package var inserted: Set<PersistentIdentifier>
    /// Models whose properties the saves changed.
    package var updated: Set<PersistentIdentifier>
    /// Models the saves deleted.
    package var deleted: Set<PersistentIdentifier>
    /// The contexts whose saves are merged into this event; a context need not reload its own models.
    package var origins: Set<ObjectIdentifier>
    /// Whether a change made outside this container's contexts is merged in (another container, process or
    /// machine; `notifyChanges(to:)`): then no context may skip the reload, whatever `origins` says.
    package var includesExternalChanges: Bool
    /// The names of the properties the saves wrote in updated rows, by entity name: a row whose written properties
    /// are none of those a query reads still matches it as before. `nil` when unknown (a change made outside this
    /// container, a save under `.overwrite`).
    package var updatedProperties: [String: Set<String>]?
    /// Which post this is (increasing per container; the latest one for merged events); 0 before it is posted.
    /// Observers sharing a context use it to load each saved row once per save, not once per observer.
    package var serial: UInt64 = 0

    /// An event for one save in this process (`origin`: the saving context), or for rows another container,
    /// process or machine saved (`origin` `nil`).
    package init(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier],
        origin: ObjectIdentifier?, updatedProperties: [String: Set<String>]? = nil
    ) {
        self.updatedProperties = updatedProperties
        self.inserted = Set(inserted)
        self.updated = Set(updated)
        self.deleted = Set(deleted)
        self.entityNames = Set((inserted + updated + deleted).map(\.entityName))
        self.origins = origin.map { [$0] } ?? []
        self.includesExternalChanges = origin == nil
    }

    /// An event for a change made outside the container: every entity may have changed.
    package static var external: StoreChangeEvent {
        var event = StoreChangeEvent(inserted: [], updated: [], deleted: [], origin: nil)
        event.entityNames = nil
        return event
    }

    /// An event saying that some entities changed, without saying which models.
    package static func entities(_ names: Set<String>) -> StoreChangeEvent {
        var event = external
        event.entityNames = names
        return event
    }

    /// Whether no model was named: the models of the touched entities must be reloaded from the store.
    package var isUnspecific: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty
    }

    /// Whether the event may concern `entityName`.
    package func touches(_ entityName: String) -> Bool {
        entityNames?.contains(entityName) ?? true
    }

    /// One event that stands for this one followed by `other` (bursts of saves coalesce into one refresh).
    package func merged(with other: StoreChangeEvent) -> StoreChangeEvent {
        var result = self
        if let names = entityNames, let otherNames = other.entityNames {
            result.entityNames = names.union(otherNames)
        } else {
            result.entityNames = nil
        }
        result.inserted.formUnion(other.inserted)
        result.updated.formUnion(other.updated)
        result.deleted.formUnion(other.deleted)
        result.origins.formUnion(other.origins)
        result.includesExternalChanges = includesExternalChanges || other.includesExternalChanges
        result.serial = Swift.max(serial, other.serial)
        if let properties = updatedProperties, let otherProperties = other.updatedProperties {
            result.updatedProperties = properties.merging(otherProperties) { $0.union($1) }
        } else {
            result.updatedProperties = nil
        }
        if isUnspecific || other.isUnspecific {
            // One side didn't say which models changed, so the merged event can't either.
            result.inserted = []
            result.updated = []
            result.deleted = []
            result.updatedProperties = nil
        }
        return result
    }
}
