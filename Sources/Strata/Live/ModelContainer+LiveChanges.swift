extension ModelContainer {
    /// Where saves announce their changes to live results (`ResultsObserver`): the container's change center,
    /// attached as a save observer when first asked for.
    package var liveChanges: LiveChangeCenter {
        saveObservers.observer(LiveChangeCenter.self) { LiveChangeCenter() }
    }

    /// Tells the container's live results that the stored models of some classes changed in a way Strata
    /// didn't see (for example SQL run on the store file by hand): their observers reload and re-fetch, and every
    /// context of the container reads its models of those classes again before its next fetch.
    ///
    /// ```swift
    /// container.notifyChanges(to: Book.self)
    /// ```
    public func notifyChanges(to types: any PersistentModel.Type...) {
        let names = Set(types.compactMap { schema.entity(forType: $0)?.name })
        unmergedChanges.deliver(UnmergedChanges(entityNames: names), from: nil)
        liveChanges.post(.entities(names))
    }
}

extension LiveChangeCenter: ModelContainerSaveObserver {
    /// Posts a save of one of the container's contexts to the live results it affects.
    package func containerDidSave(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier],
        deleted: [PersistentIdentifier], origin: ObjectIdentifier,
        updatedProperties: () -> [String: Set<String>]?
    ) {
        post(
            StoreChangeEvent(
                inserted: inserted, updated: updated, deleted: deleted, origin: origin,
                updatedProperties: updatedProperties()))
    }

    /// Posts that the entities' stored models changed wholesale: their live results reload.
    package func containerDidInvalidate(entityNames: Set<String>) {
        post(.entities(entityNames))
    }
}
