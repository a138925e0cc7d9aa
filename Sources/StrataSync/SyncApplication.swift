import Strata

/// A set of links a sync made the same as the hub's: the owner, and the hub's targets (to become the local base of
/// those links once the owner and targets have keys).
struct AppliedLinkBase {
    let link: SyncedEntity.Link
    let owner: any PersistentModel
    let targets: [any PersistentModel]
}

/// Changes of several entities applied to one context: rows first, then the to-one relationships and the links
/// between them.
enum SyncApplication {
    /// Applies `changes` (by entity name) to `context` without saving; `kept` is what each entity's rows keep (see
    /// ``SyncedEntity/apply(_:to:keeping:resolving:)``, which `resolve` is given). A to-one relationship whose
    /// target is neither in `changes` nor stored in the context's store points to a row deleted here: it is
    /// emptied, or its row deleted when the target's inverse cascades; a link to such a row is left out.
    /// - Returns: the sets of links made the same as a base the changes carried.
    @discardableResult
    static func apply(
        _ changes: [String: SyncedChanges], of entities: [SyncedEntity], to context: ModelContext,
        keeping kept: [String: [StoredValue: Set<Int>?]] = [:],
        resolving resolve: ((SyncConflict) -> SyncConflict.Resolution)? = nil
    ) throws -> [AppliedLinkBase] {
        var models: [String: [StoredValue: any PersistentModel]] = [:]
        var references: [(SyncedEntity, PendingReference)] = []
        var linkEdits: [(SyncedEntity, LinkEdit)] = []
        for synced in entities {
            guard let entityChanges = changes[synced.entity.name] else { continue }
            let applied = try synced.apply(
                entityChanges, to: context, keeping: kept[synced.entity.name] ?? [:], resolving: resolve)
            models[synced.entity.name] = applied.models
            references += applied.references.map { (synced, $0) }
            linkEdits += entityChanges.links.map { (synced, $0) }
        }
        // The models named but not among the rows applied are read from the store, one query per entity.
        var missing: [String: Set<StoredValue>] = [:]
        func need(_ identity: StoredValue, of entity: String) {
            if identity != .null, models[entity]?[identity] == nil { missing[entity, default: []].insert(identity) }
        }
        for (synced, reference) in references {
            guard let destination = synced.references[reference.index]?.destination else { continue }
            need(reference.target, of: destination)
        }
        for (synced, edit) in linkEdits {
            need(edit.owner, of: synced.entity.name)
            guard let link = synced.links[edit.index] else { continue }
            for target in [edit.base ?? [], edit.added, edit.removed].joined() { need(target, of: link.destination) }
        }
        let byName = Dictionary(uniqueKeysWithValues: entities.map { ($0.entity.name, $0) })
        for (name, identities) in missing {
            guard let entity = byName[name] else { continue }
            models[name, default: [:]].merge(
                try entity.models(withIdentities: Array(identities), in: context)
            ) { applied, _ in applied }
        }
        for (synced, reference) in references {
            guard let destination = synced.references[reference.index]?.destination else { continue }
            if reference.target == .null {
                setTargets([], of: reference.model, at: reference.index)
            } else if let target = models[destination]?[reference.target],
                !target.persistentBackingData.isDeleted
            {
                setTargets([target], of: reference.model, at: reference.index)
            } else if synced.entity.relationshipInfos[reference.index]?.inverse?.deleteRule == .cascade {
                // The target was deleted here (``ReferencedRows`` brings any that were not): the row goes with it,
                // as it would have had it pointed there when the target was deleted.
                context.delete(reference.model)
            } else {
                setTargets([], of: reference.model, at: reference.index)
            }
        }
        var bases: [AppliedLinkBase] = []
        for (synced, edit) in linkEdits {
            let name = synced.entity.name
            guard let link = synced.links[edit.index], let owner = models[name]?[edit.owner],
                !owner.persistentBackingData.isDeleted
            else { continue }
            if case .some(.none) = kept[name]?[edit.owner] { continue }
            let targets = (models[link.destination] ?? [:]).filter { !$0.value.persistentBackingData.isDeleted }
            let base = edit.base?.compactMap { targets[$0] }
            var set = base ?? owner.persistentBackingData.relatedModels(at: edit.index)
            let removed = Set(edit.removed.compactMap { targets[$0] }.map { ObjectIdentifier($0) })
            set.removeAll { removed.contains(ObjectIdentifier($0)) }
            var present = Set(set.map { ObjectIdentifier($0) })
            for target in edit.added.compactMap({ targets[$0] })
            where present.insert(ObjectIdentifier(target)).inserted {
                set.append(target)
            }
            let now = Set(owner.persistentBackingData.relatedModels(at: edit.index).map { ObjectIdentifier($0) })
            if now != present { setTargets(set, of: owner, at: edit.index) }
            if let base { bases.append(AppliedLinkBase(link: link, owner: owner, targets: base)) }
        }
        return bases
    }

    private static func setTargets(_ targets: [any PersistentModel], of model: some PersistentModel, at index: Int) {
        model.persistentBackingData.setRelatedModels(targets, at: index, on: model)
    }
}
