extension ModelContainer {
    /// Tells the container's live results that the stored models of some classes changed in a way Strata
    /// didn't see (for example SQL run on the store file by hand): their observers reload and re-fetch.
    ///
    /// ```swift
    /// container.notifyChanges(to: Book.self)
    /// ```
    public func notifyChanges(to types: any PersistentModel.Type...) {
        let names = types.compactMap { schema.entity(forType: $0)?.name }
        liveChanges.post(.entities(Set(names)))
    }
}
