extension ModelBackingData {
    /// Keeps the inverse of relationship `info` of `model` in step after it gained `added` and lost `removed`.
    ///
    /// `context` is the models' context, or `nil` for models in none: their inverses are set all the same, so
    /// `author.books.append(book)` sets `book.author` before either is inserted, as in SwiftData.
    static func updateInverses(
        of model: any PersistentModel, relationship info: Schema.RelationshipInfo,
        added: [any PersistentModel], removed: [any PersistentModel], in context: (any ModelBackingDataContext)?
    ) {
        let inverses = info.inverses
        for target in removed {
            for inverse in inverses {
                detach(model, from: target, inverse: inverse, targetEntity: info.destination, in: context)
            }
        }
        // A to-one that several to-many relationships share as their inverse can't tell which of them gains the
        // model: assigning it leaves them as they are (appending to one of them sets the to-one).
        guard inverses.count == 1, let inverse = inverses.first else { return }
        for target in added { attach(model, to: target, inverse: inverse, targetEntity: info.destination, in: context) }
    }

    /// Removes `owner` from `target`'s relationship `inverse`.
    static func detach(
        _ owner: any PersistentModel, from target: any PersistentModel, inverse: Schema.RelationshipInfo,
        targetEntity: Schema.Entity, in context: (any ModelBackingDataContext)?
    ) {
        let data = target.persistentBackingData
        if data.defersChange(of: inverse, in: context) {
            data.pendingToManyChanges[inverse.index, default: PendingToManyChanges()].remove(owner)
            data.changedRelationships.insert(inverse.index)
            didChangeInverse(of: target, at: inverse.index, entity: targetEntity, in: context)
            return
        }
        let current = data.relatedModels(at: inverse.index)
        guard current.contains(where: { $0 === owner }) else { return }
        context?.registerUndoOfRelationshipChange(of: target, at: inverse.index, from: current)
        data.relationshipTargets[inverse.index] = current.filter { $0 !== owner }
        data.changedRelationships.insert(inverse.index)
        if inverse.savesJoinRows { data.joinRemovals[inverse.index, default: []].append(owner) }
        didChangeInverse(of: target, at: inverse.index, entity: targetEntity, in: context)
    }

    /// Adds `owner` to `target`'s relationship `inverse`; a to-one inverse first lets go of its previous model.
    static func attach(
        _ owner: any PersistentModel, to target: any PersistentModel, inverse: Schema.RelationshipInfo,
        targetEntity: Schema.Entity, in context: (any ModelBackingDataContext)?
    ) {
        let data = target.persistentBackingData
        if data.defersChange(of: inverse, in: context) {
            data.pendingToManyChanges[inverse.index, default: PendingToManyChanges()].add(owner)
            data.changedRelationships.insert(inverse.index)
            didChangeInverse(of: target, at: inverse.index, entity: targetEntity, in: context)
            return
        }
        let current = data.relatedModels(at: inverse.index)
        guard !current.contains(where: { $0 === owner }) else { return }
        context?.registerUndoOfRelationshipChange(of: target, at: inverse.index, from: current)
        if inverse.isToMany {
            data.relationshipTargets[inverse.index] = current + [owner]
        } else {
            data.relationshipTargets[inverse.index] = [owner]
            for previous in current where previous !== owner {
                for forward in inverse.inverses {
                    detach(target, from: previous, inverse: forward, targetEntity: inverse.destination, in: context)
                }
            }
        }
        data.changedRelationships.insert(inverse.index)
        if inverse.savesJoinRows { data.joinAdditions[inverse.index, default: []].append(owner) }
        didChangeInverse(of: target, at: inverse.index, entity: targetEntity, in: context)
    }

    /// Whether a change of relationship `inverse` (an inverse being kept in step) is noted for when the
    /// relationship is read rather than made now: a to-many read through its inverse's foreign key, not read yet,
    /// of a stored model in a context that records no undo. Reading it now would load it, and every other unread
    /// one of its entity, for a change the store's rows plus the noted changes give as well.
    private func defersChange(of inverse: Schema.RelationshipInfo, in context: (any ModelBackingDataContext)?) -> Bool {
        guard inverse.isToMany, case .inverseForeignKey = inverse.storage, let context, !context.recordsUndo,
            state == .registered, primaryKey != nil, !relationshipTargets.contains(inverse.index)
        else { return false }
        return self.context === context
    }

    /// Records that `target`'s relationship `index` changed behind its setter, and tells its observers.
    private static func didChangeInverse(
        of target: any PersistentModel, at index: Int, entity: Schema.Entity, in context: (any ModelBackingDataContext)?
    ) {
        if let context, target.persistentBackingData.state == .registered {
            context.inverseRelationshipDidChange(of: target)
        }
        if index < entity.persistentProperties.count { entity.persistentProperties[index].notifyObservers(of: target) }
    }
}
