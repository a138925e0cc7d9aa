// Change tracking: what a model changed since its last save, forgotten when the save writes it and reverted on
// rollback. The saved values are kept by the writes themselves (`keepSavedValue`, on the macro's path).
extension ModelBackingData {
    /// Whether the model has changes to save: it is inserted or deleted, or a value, relationship or ephemeral
    /// property changed since the last save.
    package var hasChanges: Bool {
        switch state {
        case .inserted, .deleted: true
        case .registered:
            hasSavedValues || !encodingFailures.isEmpty || !changedRelationships.isEmpty
                || sideState?.hasEphemeralChanges == true
        case .detached, .deletedAndSaved: false
        }
    }

    /// Forgets that an `@Attribute(.ephemeral)` property was assigned: the model is being saved.
    package func forgetEphemeralChanges() {
        if let sideState, sideState.hasEphemeralChanges { sideState.hasEphemeralChanges = false }
    }

    /// Restores every changed property to its saved value.
    package func revertChanges() {
        for (index, saved) in savedValues { values[index] = saved }
        for index in savedValues.keys { decodedValues[index] = nil }
        // Reassigned relationships are read again from the store.
        for index in changedRelationships { relationshipTargets[index] = nil }
        clearSavedValues()
        if let sideState {
            sideState.hasEphemeralChanges = false
            sideState.encodingFailures.removeAll()
            sideState.changedRelationships.removeAll()
            sideState.joinAdditions.removeAll()
            sideState.joinRemovals.removeAll()
            sideState.pendingToManyChanges.removeAll()
        }
    }

    /// Forgets the saved values: the current values are now what the store holds.
    package func commitChanges() {
        // Each guarded: most models have nothing to forget, and clearing an empty collection still writes it.
        clearSavedValues()
        commitRelationshipChanges()
    }

    /// Forgets the relationship assignments: the store now holds them.
    package func commitRelationshipChanges() {
        guard let sideState else { return }
        if !sideState.changedRelationships.isEmpty { sideState.changedRelationships.removeAll() }
        if !sideState.joinAdditions.isEmpty { sideState.joinAdditions.removeAll() }
        if !sideState.joinRemovals.isEmpty { sideState.joinRemovals.removeAll() }
        if !sideState.pendingToManyChanges.isEmpty { sideState.pendingToManyChanges.removeAll() }
    }
}
