extension ModelContext {
    /// Brings the registered models up to date with what the container's other contexts saved since this context
    /// last merged, as SwiftData's contexts merge each other's saves: every fetch does it first, and the main
    /// context and a `ModelActor`'s context also do it by themselves soon after the save.
    ///
    /// Models with unsaved changes keep them. Models whose rows were deleted leave the context and read as
    /// deleted. Models whose rows changed read the new values, and their observers are told. Relationships that
    /// may reach the saved rows are read again from the store when next used.
    ///
    /// - Throws: `StrataError.storeFailure` when the store can't be read; the changes stay to merge, and the next
    ///   fetch tries again.
    func mergeChangesSavedElsewhere() throws {
        guard unmergedChanges.hasUnmergedChanges, let changes = unmergedChanges.take() else { return }
        try merge(changes)
    }

    /// The merge scheduled on the main actor or the actor's queue after another context saved. A failure leaves
    /// the changes for the next fetch, which reports it.
    func mergeScheduledChanges() {
        guard let changes = unmergedChanges.take(scheduled: true) else { return }
        try? merge(changes)
    }

    private func merge(_ changes: UnmergedChanges) throws {
        // A context whose container is gone, or whose store was erased, has nothing to bring up to date.
        if store.eraseCount != seenEraseCount { forgetErasedModels() }
        guard !isSavingBeforeRelease, (try? checkContainerIsAlive()) != nil else { return }
        let schema = store.schema
        do {
            for name in changes.entitiesWithUnnamedRows.sorted() {
                guard let entity = schema.entity(named: name) else { continue }
                try reloadRegisteredModels(of: entity, keys: nil)
            }
            for (name, keys) in changes.changedKeys.sorted(by: { $0.key < $1.key }) {
                guard let entity = schema.entity(named: name) else { continue }
                try reloadRegisteredModels(of: entity, keys: keys)
            }
            let touched = Set(changes.touchedEntities.compactMap { schema.entity(named: $0)?.identityKey })
            try forgetRelationships(reaching: touched) { owner, key in
                changes.entitiesWithUnnamedRows.contains(owner.name)
                    || changes.changedKeys[owner.name]?.contains(key) == true
            }
        } catch {
            unmergedChanges.putBack(changes)
            throw error
        }
    }

    /// Drops the loaded relationships of registered models that may reach a saved row of the hierarchies
    /// `touched` (by their identity keys), so the next read loads them again: a to-many list, or a to-one kept on
    /// the other model's row. A to-one kept on the owner's own row was read again with the row, unless the
    /// model it held is gone: then the owner's row is read again too, for the store changed it (nullify) or
    /// deleted it (cascade).
    ///
    /// A relationship kept in a join table is dropped too when its owner's own row was saved (`ownerWasSaved`): a
    /// one-sided `reviewers: [User]` changed elsewhere touches no `User`.
    ///
    /// Relationships the context changed and hasn't saved are kept.
    private func forgetRelationships(
        reaching touched: Set<ObjectIdentifier>, ownerWasSaved: (Schema.Entity, Int64) -> Bool
    ) throws {
        guard !touched.isEmpty else { return }
        var ownersToReload: [ObjectIdentifier: (entity: Schema.Entity, keys: Set<Int64>)] = [:]
        for entity in store.schema.entities where entity.parentEntity == nil {
            let hierarchy = entity.selfAndDescendants
            let reachesTouched = hierarchy.contains { member in
                member.relationshipInfos.values.contains {
                    touched.contains($0.destination.identityKey)
                        || (touched.contains(member.identityKey) && $0.isKeptInJoinTable)
                }
            }
            guard reachesTouched, let map = registry.map(of: entity.identityKey), !map.isEmpty else { continue }
            var forgotten: [Int64] = []
            for model in map.registered {
                let data = model.persistentBackingData
                guard !data.relationshipTargets.isEmpty, let owner = data.entity, let key = data.primaryKey
                else { continue }
                var dropped: [Int] = []
                for (index, targets) in data.relationshipTargets {
                    guard let info = owner.relationshipInfos[index], !data.changedRelationships.contains(index),
                        touched.contains(info.destination.identityKey)
                            || (info.isKeptInJoinTable && ownerWasSaved(owner, key))
                    else { continue }
                    if case .foreignKey = info.storage {
                        if targets.contains(where: { $0.persistentBackingData.state == .deletedAndSaved }),
                            !data.hasChanges
                        {
                            ownersToReload[ObjectIdentifier(owner), default: (owner, [])].keys.insert(key)
                        }
                    } else {
                        dropped.append(index)
                    }
                }
                guard !dropped.isEmpty else { continue }
                for index in dropped { data.relationshipTargets[index] = nil }
                forgotten.append(key)
                notifyObservers(of: model, properties: dropped)
            }
            // Read again together, one query per batch of owners, when the first of them is read.
            noteRegisteredOwners(forgotten, of: entity)
        }
        for (_, owners) in ownersToReload.sorted(by: { $0.value.entity.name < $1.value.entity.name }) {
            try reloadRegisteredModels(of: owners.entity, keys: owners.keys)
        }
    }
}

extension Schema.RelationshipInfo {
    /// Whether the relationship's members are rows of a join table, which no member's own row records.
    fileprivate var isKeptInJoinTable: Bool {
        if case .joinTable = storage { return true }
        return false
    }
}
