import Foundation

// The context's side of undo: every insert, delete, property change and relationship change registers the
// operation that reverts it with the context's `undoManager`, and each of those operations registers its own
// inverse, which is what the undo manager keeps for redo. The operations act on the state a model is in when
// they run, not the one it was in when they were registered, so they stay right across saves: undoing an insert
// that was saved deletes the model (at the next save), undoing a saved delete inserts it again as a new row.
//
// `UndoManager` is main-actor isolated (as in Foundation): changes are registered when the context makes them on
// the main actor; a context used elsewhere registers nothing (see `MainActorNow`).

extension ModelContext {
    // MARK: - Registering (called where the context and the models change)

    /// Whether the context records its changes for undo: it has an undo manager.
    @usableFromInline var recordsUndo: Bool { undoManager != nil }

    /// Registers the undo of a property change: the value at `index` goes back to `previous`.
    @usableFromInline
    func registerUndoOfValueChange(of model: some PersistentModel, at index: Int, from previous: StoredValue) {
        nonisolated(unsafe) let model: any PersistentModel = model
        registerUndo { context in context.restoreValue(previous, at: index, of: model) }
    }

    /// Registers the undo of a relationship change: relationship `index` of `model` goes back to `previous`.
    @usableFromInline
    func registerUndoOfRelationshipChange(
        of model: any PersistentModel, at index: Int, from previous: [any PersistentModel]
    ) {
        guard undoManager != nil else { return }
        nonisolated(unsafe) let model = model
        nonisolated(unsafe) let previous = previous
        registerUndo { context in context.restoreRelationship(previous, at: index, of: model) }
    }

    /// Registers the undo of an insert (or of the undo of a delete): the model leaves the context again.
    func registerUndoOfInsert(_ model: any PersistentModel) {
        guard undoManager != nil else { return }
        nonisolated(unsafe) let model = model
        registerUndo { context in context.withdraw(model) }
    }

    /// Registers the undo of a delete: the model comes back. Its relationships are read first, so a model whose
    /// delete is saved can be inserted again with all of them.
    func registerUndoOfDelete(_ model: any PersistentModel) {
        guard undoManager != nil else { return }
        let data = model.persistentBackingData
        if data.primaryKey != nil, let entity = data.entity {
            for index in entity.relationshipInfos.keys { _ = data.relatedModels(at: index) }
        }
        nonisolated(unsafe) let model = model
        registerUndo { context in context.reinstate(model) }
    }

    /// Registers the undo of the `delete(model:where:)` at `position` of `pendingBatchDeletes`: until it is saved,
    /// undoing takes it out, so the rows no model of the context stood for stay too.
    func registerUndoOfBatchDelete(at position: Int) {
        guard undoManager != nil else { return }
        registerUndo { context in context.withdrawBatchDelete(at: position) }
    }

    /// Forgets every operation registered for this context (a rollback discards what they would revert).
    func removeUndoActions() {
        guard let undoManager else { return }
        nonisolated(unsafe) let context = self
        MainActorNow.run { undoManager.removeAllActions(withTarget: context) }
    }

    /// Registers `operation` with the undo manager, the context as its target, when on the main actor.
    private func registerUndo(_ operation: @escaping @MainActor (ModelContext) -> Void) {
        guard let undoManager else { return }
        nonisolated(unsafe) let context = self
        MainActorNow.run { undoManager.registerUndo(withTarget: context, handler: operation) }
    }

    // MARK: - The operations undo and redo run

    /// Sets the stored value at `index` back to `value`, as its setter would.
    private func restoreValue(_ value: StoredValue, at index: Int, of model: any PersistentModel) {
        let data = model.persistentBackingData
        guard data.context == nil || data.context === self else { return }
        if data.unloadedProperties != nil { data.loadUnloadedProperties() }
        guard index < data.values.count else { return }
        let current = data.values[index]
        registerUndoOfValueChange(of: model, at: index, from: current)
        data.values[index] = value
        data.decodedValues[index] = nil
        if !data.encodingFailures.isEmpty { data.encodingFailures[index] = nil }
        if data.state == .registered { data.keepSavedValue(at: index, changedFrom: current, to: value) }
        notifyObservers(of: model, properties: [index])
        modelDidChange(model)
    }

    /// Sets relationship `index` back to `targets`, recording the join-table rows it adds and removes (the
    /// inverse relationships are set back by their own operations).
    private func restoreRelationship(_ targets: [any PersistentModel], at index: Int, of model: any PersistentModel) {
        let data = model.persistentBackingData
        guard data.context == nil || data.context === self else { return }
        let current = data.relationshipTargets[index] ?? data.relatedModels(at: index)
        registerUndoOfRelationshipChange(of: model, at: index, from: current)
        let currentIdentities = Set(current.map { ObjectIdentifier($0) })
        let restoredIdentities = Set(targets.map { ObjectIdentifier($0) })
        data.relationshipTargets[index] = targets
        data.changedRelationships.insert(index)
        if data.keepsJoinChanges(at: index) {
            data.joinAdditions[index, default: []].append(
                contentsOf: targets.filter { !currentIdentities.contains(ObjectIdentifier($0)) })
            data.joinRemovals[index, default: []].append(
                contentsOf: current.filter { !restoredIdentities.contains(ObjectIdentifier($0)) })
        }
        if data.state == .registered { changedModels[ObjectIdentifier(model)] = model }
        notifyObservers(of: model, properties: [index])
        scheduleAutosave()
    }

    /// Takes a model out of the context: an unsaved insert is forgotten, a stored model is deleted at the next
    /// save. Delete rules are not applied again: what they changed has operations of its own.
    private func withdraw(_ model: any PersistentModel) {
        guard removeFromContext(model) else { return }
        registerUndoOfDelete(model)
        scheduleAutosave()
    }

    /// Brings a model back into the context: a forgotten insert is inserted again, a deleted model is no longer
    /// deleted, and a model whose delete was saved is inserted as a new row (with a new identifier).
    private func reinstate(_ model: any PersistentModel) {
        let data = model.persistentBackingData
        let key = ObjectIdentifier(model)
        switch data.state {
        case .detached where data.context == nil && data.entity != nil:
            data.context = self
            data.state = .inserted
            insertedModels.append(model)
        case .deleted where data.context === self:
            deletedModels[key] = nil
            data.state = .registered
            if data.hasChanges { changedModels[key] = model }
        case .deletedAndSaved where data.context === self:
            guard let entity = data.entity else { return }
            data.primaryKey = nil
            data.rowVersion = 0
            // Its foreign keys are written after the save's inserts, from the relationships (as for any insert):
            // the stored keys may name rows deleted with it.
            for (index, info) in entity.relationshipInfos
            where !info.isToMany && data.relationshipTargets.contains(index) {
                data.values[index] = .null
            }
            data.state = .inserted
            insertedModels.append(model)
        case .detached, .inserted, .registered, .deleted, .deletedAndSaved:
            return
        }
        registerUndoOfInsert(model)
        scheduleAutosave()
    }

    /// Takes the pending `delete(model:where:)` at `position` out (it was not saved yet).
    private func withdrawBatchDelete(at position: Int) {
        guard position < pendingBatchDeletes.count else { return }
        let batch = pendingBatchDeletes.remove(at: position)
        registerUndo { context in
            context.pendingBatchDeletes.insert(batch, at: Swift.min(position, context.pendingBatchDeletes.count))
            context.registerUndoOfBatchDelete(at: Swift.min(position, context.pendingBatchDeletes.count - 1))
            context.scheduleAutosave()
        }
    }
}
