import Foundation

extension ModelContext {
    /// Unlinks the relationships of this context's unchanged models, so that models which hold each other (a book
    /// and its author, once both sides were read) don't keep each other — and their store — alive after the
    /// context is gone. Called by `deinit`.
    ///
    /// A relationship link is dropped (turned back into an unloaded relationship) only where the model and every
    /// related model are stored and unchanged: a model the user keeps then reads the relationship from its store
    /// (``ModelBackingData/relatedModelsFromStore(at:)``), which holds what the link held. Models with unsaved
    /// changes — inserted, changed, deleted, or with a changed relationship — keep their links, and so does every
    /// link to one of them, so nothing unsaved is lost or seen differently.
    ///
    /// The models belong to the context's isolation domain. The main context's models belong to the main actor:
    /// when the main context goes away on another thread, they are unlinked on the main queue.
    func releaseRelationshipLinks() {
        var linked: [any PersistentModel] = []
        registry.forEachModel { _, model in
            if !model.persistentBackingData.relationshipTargets.isEmpty { linked.append(model) }
        }
        guard !linked.isEmpty else { return }
        let changed = Set(changedModels.identities).union(deletedModels.keys)
        if isMainContext, !Thread.isMainThread {
            let handoff = UnlinkHandoff(models: linked, changed: changed)
            DispatchQueue.main.async { Self.unlinkUnchangedRelationships(of: handoff.models, changed: handoff.changed) }
        } else {
            Self.unlinkUnchangedRelationships(of: linked, changed: changed)
        }
    }

    /// Drops every relationship link of `models` between stored, unchanged models; `changed` identifies the
    /// models the context held as changed or deleted.
    static func unlinkUnchangedRelationships(of models: [any PersistentModel], changed: Set<ObjectIdentifier>) {
        func isUnchanged(_ model: any PersistentModel) -> Bool {
            !changed.contains(ObjectIdentifier(model)) && model.persistentBackingData.isStoredAndUnchanged
        }
        for model in models where isUnchanged(model) {
            let data = model.persistentBackingData
            let unlinked = data.relationshipTargets.filter { _, targets in targets.allSatisfy(isUnchanged) }
            for (index, _) in unlinked { data.relationshipTargets[index] = nil }
        }
    }
}

/// The models a main context going away on another thread hands to the main queue to unlink.
///
/// Unchecked: nothing else can reach the models' links meanwhile — the context is gone, and the models belong to
/// the main actor, where the unlinking runs.
private struct UnlinkHandoff: @unchecked Sendable {
    let models: [any PersistentModel]
    let changed: Set<ObjectIdentifier>
}

extension ModelBackingData {
    /// Whether the model is backed by a row and has no unsaved change: what its store holds is what it holds.
    var isStoredAndUnchanged: Bool {
        guard state == .registered, !hasSavedValues else { return false }
        guard let sideState else { return true }
        return sideState.changedRelationships.isEmpty && sideState.joinAdditions.isEmpty
            && sideState.joinRemovals.isEmpty && sideState.encodingFailures.isEmpty
    }
}
