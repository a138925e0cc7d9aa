import Foundation

extension ModelContext {
    /// Writes every pending insert, change and delete to the store in one transaction.
    ///
    /// Saving a context without changes does nothing. `ModelContext.willSave` is posted first (changes its
    /// observers make are saved too); after a successful save, inserted models have permanent identifiers and
    /// `ModelContext.didSave` is posted.
    ///
    /// - Throws: `SwiftDataError.modelValidationFailure` carrying `StrataError.uniqueConstraintViolation` (under
    ///   the `.error` merge policy, or when an update collides), `.unrepresentableValue`,
    ///   `.missingRequiredRelationship` (a non-optional to-one holding no model), `.deleteDenied` or
    ///   `.relationshipCountViolation`; `StrataError.readOnlyContainer`,
    ///   `StrataError.unknownEntity`, `StrataError.mergeConflict` (under the `.error` merge policy, when a changed or
    ///   deleted model's row was saved elsewhere after this context read it), or `StrataError.storeFailure` (also for a changed model whose properties could not be read from the store,
    ///   see ``faultError``). When it throws, nothing was written and the context keeps its pending changes.
    public func save() throws {
        try save(requiring: [])
    }

    /// Saves as ``save()`` does, running `conditions` first in the save's transaction: when one changes no row, the
    /// save writes nothing, keeps the pending changes and throws ``StoreSaveConditionUnmet``.
    package func save(requiring conditions: [StoreSaveCondition]) throws {
        try throwingSwiftDataErrors {
            if store.eraseCount != seenEraseCount { forgetErasedModels() }
            guard hasChanges else { return }
            try checkContainerIsAlive()
            if let unknown = unknownInsertions.first { throw StrataError.unknownEntity(unknown) }
            if let placeholder = placeholderInsertions.first { throw StrataError.modelNotInContext(placeholder) }
            guard !store.isReadOnly else { throw StrataError.readOnlyContainer(operation: "save") }
            postWillSaveNotification()
            var save = PreparedSave(
                inserted: insertedModelsArray, changed: changedModels.inRowOrder(),
                deleted: Array(deletedModels.values))
            save.changes.author = author
            save.changes.conditions = conditions
            let result: StoreSaveResult
            do {
                try prepare(&save)
                result = try store.save(save.changes, mergePolicy: mergePolicy)
            } catch {
                for taken in save.takenSavedValues {
                    taken.data.savedValues = taken.savedValues
                    taken.data.rowVersion = taken.version
                }
                throw error
            }
            let (insertedIdentifiers, deletedIdentifiers) = adopt(result, of: save)
            let mergePolicy = mergePolicy
            finishSave(inserted: insertedIdentifiers, updated: save.updatedIdentifiers, deleted: deletedIdentifiers) {
                Self.updatedPropertyNames(save.changes, mergePolicy: mergePolicy)
            }
        }
    }

    /// What a save hands the store, and what it needs to adopt the store's result or, when the save fails, to put
    /// the changed models back as they were.
    private struct PreparedSave {
        let inserted: [any PersistentModel]
        let changed: [any PersistentModel]
        let deleted: [any PersistentModel]
        var changes = StoreChanges()
        /// Whether any model saved has relationships; without any, the relationship passes are skipped.
        var hasRelationships: Bool
        /// The changed models whose relationships were assigned: the only changed ones whose foreign keys and
        /// join rows are written and recorded as saved.
        var relationshipChanged: [any PersistentModel] = []
        /// The inserted and changed models whose relationships have rules a save checks (a required to-one, a
        /// count limit), in that order.
        var ruled: [any PersistentModel] = []
        var updatedIdentifiers: [PersistentIdentifier] = []
        /// The changed models' saved values, taken out while the save runs.
        var takenSavedValues: [TakenSavedValues] = []
        private var lastEntity: Schema.Entity?
        /// Whether `lastEntity` has relationships, and whether any of them has a rule a save checks.
        private(set) var entityHasRelationships = false
        private(set) var entityHasRelationshipRules = false
        /// The identifier of the store holding `lastEntity`'s rows, part of its models' identifiers.
        private(set) var entityStoreIdentifier = ""

        init(inserted: [any PersistentModel], changed: [any PersistentModel], deleted: [any PersistentModel]) {
            self.inserted = inserted
            self.changed = changed
            self.deleted = deleted
            hasRelationships = deleted.contains {
                !($0.persistentBackingData.entity?.relationshipInfos.isEmpty ?? true)
            }
        }

        /// Notes the entity of a model saved, whose rows `store` holds (runs of one entity cost one comparison).
        mutating func note(_ entity: Schema.Entity, in store: any PersistentStore) {
            guard entity !== lastEntity else { return }
            lastEntity = entity
            entityHasRelationships = !entity.relationshipInfos.isEmpty
            entityHasRelationshipRules = entity.relationshipInfos.values.contains(where: \.hasSaveRule)
            entityStoreIdentifier = store.storeIdentifier(for: entity)
            if entityHasRelationships { hasRelationships = true }
        }
    }

    /// Turns the pending inserts, changes and deletes into the store's changes, checking each model's values and
    /// relationships.
    ///
    /// Each changed model is a cache miss away, so everything a save does to it happens in this one pass: its saved
    /// values are taken out (the write makes them current; `save()` puts them back if the save fails) and its
    /// version moves on.
    /// - Throws: the validation errors of `save()`.
    private func prepare(_ save: inout PreparedSave) throws {
        for model in save.inserted {
            let data = model.persistentBackingData
            let entity = try entity(of: model)
            save.note(entity, in: store)
            try checkEncoding(data, entity: entity)
            save.changes.inserts.append(StoreChanges.Insert(entity: entity, values: data.values))
            if save.entityHasRelationshipRules { save.ruled.append(model) }
        }
        save.updatedIdentifiers.reserveCapacity(save.changed.count)
        save.takenSavedValues.reserveCapacity(save.changed.count)
        // Room for an update of each changed model and a column each at once: grown step by step, the arrays
        // were copied and their new memory faulted in several times over in a large save.
        save.changes.updates.reserveCapacity(save.changed.count)
        save.changes.updateColumns.reserveCapacity(save.changed.count)
        // Read before the changed models' versions move on below.
        save.changes.batchDeletes =
            mergePolicy == .error ? batchDeletesToWrite.map(withReadVersions) : batchDeletesToWrite
        for model in save.changed {
            let data = model.persistentBackingData
            let entity = try entity(of: model)
            save.note(entity, in: store)
            if data.sideState?.faultFailure != nil { try data.rereadAfterFailedFault() }
            try checkEncoding(data, entity: entity)
            // A stored model's identifier, as `persistentModelID` makes it, without asking the store for the
            // entity's store identifier again for every model.
            if let key = data.primaryKey, data.entity != nil {
                save.updatedIdentifiers.append(
                    PersistentIdentifier(
                        entityName: entity.name, storeIdentifier: save.entityStoreIdentifier, key: .permanent(key)))
            } else {
                save.updatedIdentifiers.append(model.persistentModelID)
            }
            if save.entityHasRelationshipRules { save.ruled.append(model) }
            let assignedRelationships =
                save.entityHasRelationships && !(data.sideState?.changedRelationships.isEmpty ?? true)
            if assignedRelationships { save.relationshipChanged.append(model) }
            let savedValues = data.savedValues
            let version = data.rowVersion
            save.takenSavedValues.append(TakenSavedValues(data: data, savedValues: savedValues, version: version))
            data.clearSavedValues()
            data.forgetEphemeralChanges()
            guard let key = data.primaryKey else { continue }
            let start = save.changes.updateColumns.count
            for (index, saved) in savedValues {
                save.changes.updateColumns.append(
                    StoreChanges.UpdateColumn(index: index, value: data.values[index], saved: saved))
            }
            // Sorting a one-column slice would still copy it out and back.
            if save.changes.updateColumns.count - start > 1 {
                save.changes.updateColumns[start...].sort { $0.index < $1.index }
            }
            let columns = start..<save.changes.updateColumns.count
            let savedForeignKeys = assignedRelationships ? Self.savedForeignKeys(of: data, entity: entity) : [:]
            let joinRelationships = assignedRelationships ? Self.checkedJoinRelationships(of: data, entity: entity) : []
            save.changes.updates.append(
                StoreChanges.Update(
                    entity: entity, primaryKey: key, version: version,
                    values: mergePolicy == .overwrite ? data.values : nil, columns: columns,
                    savedForeignKeys: savedForeignKeys, joinRelationships: joinRelationships))
            // The version the row has once the update is written (put back if the save fails; a conflict the
            // merge policy resolves sets the stored one after the save).
            if !columns.isEmpty || !savedForeignKeys.isEmpty || !joinRelationships.isEmpty {
                data.rowVersion = version + 1
            }
        }
        for model in save.deleted {
            let data = model.persistentBackingData
            guard let key = data.primaryKey else { continue }
            save.changes.deletes.append(
                StoreChanges.Delete(entity: try entity(of: model), primaryKey: key, version: data.rowVersion))
        }
        if save.hasRelationships {
            try validateRelationships(ruled: save.ruled, deleted: save.deleted)
            addRelationshipChanges(to: &save.changes, inserted: save.inserted, changed: save.relationshipChanged)
        }
    }

    /// Brings the context in line with what the store wrote: inserted models get their keys and are registered,
    /// resolved conflicts' stored values are adopted, foreign keys are recorded as saved, deleted models (the batch
    /// deletes' included) leave the context.
    /// - Returns: the identifiers of the inserted and deleted models, for the notifications.
    private func adopt(
        _ result: StoreSaveResult, of save: PreparedSave
    ) -> (inserted: [PersistentIdentifier], deleted: [PersistentIdentifier]) {
        registry.noteSave()
        let insertedIdentifiers = registerInserted(
            save.inserted, keys: result.insertedKeys, upsertedVersions: result.upsertedVersions)
        if !result.resolvedConflicts.isEmpty { adoptStoredValues(result.resolvedConflicts) }
        // After every insert has its key, so foreign keys to inserted models are recorded. A changed model whose
        // relationships were not assigned has nothing to record (see `prepare`).
        if save.hasRelationships {
            for model in save.inserted { recordSavedForeignKeys(of: model.persistentBackingData) }
            for model in save.relationshipChanged { recordSavedForeignKeys(of: model.persistentBackingData) }
        }
        var deletedIdentifiers = save.deleted.map(\.persistentModelID)
        for model in save.deleted { unregister(model) }
        // The rows the batch deletes removed, and those their cascades removed: the save's own deletes ran before
        // them (their models, unregistered above, are listed already), so none of these rows is theirs.
        for (batch, keys) in zip(pendingBatchDeletes, result.batchDeletedKeys) {
            unregisterRowsGone(keys, of: batch.entity, into: &deletedIdentifiers)
        }
        for cascaded in result.cascadeDeletedKeys {
            unregisterRowsGone(cascaded.keys, of: cascaded.entity, into: &deletedIdentifiers)
        }
        return (insertedIdentifiers, deletedIdentifiers)
    }

    /// Empties the pending changes and tells who listens: `didSave`, the container's other contexts, and the save
    /// observers (live results).
    private func finishSave(
        inserted: [PersistentIdentifier], updated: [PersistentIdentifier], deleted: [PersistentIdentifier],
        updatedProperties: () -> [String: Set<String>]?
    ) {
        insertedModels.removeAll()
        changedModels.removeAll()
        deletedModels.removeAll()
        pendingBatchDeletes.removeAll()
        batchDeleteKeptKeys.removeAll()
        autosaveError = nil
        scheduledAutosave?.releaseContext()
        postSaveNotification(ModelContext.didSave, inserted: inserted, updated: updated, deleted: deleted)
        // Before the save observers: a live result told of this save merges it into its context first.
        containerInboxes.deliver(
            UnmergedChanges(inserted: inserted, updated: updated, deleted: deleted), from: ObjectIdentifier(self))
        container.saveObservers.containerDidSave(
            inserted: inserted, updated: updated, deleted: deleted, origin: ObjectIdentifier(self),
            updatedProperties: updatedProperties)
    }

    /// The names of the properties `changes` writes in updated rows (attributes and relationships), by entity
    /// name; `nil` under `.overwrite`, which writes every property of a row changed elsewhere meanwhile.
    private static func updatedPropertyNames(
        _ changes: StoreChanges, mergePolicy: MergePolicy
    ) -> [String: Set<String>]? {
        guard mergePolicy != .overwrite else { return nil }
        var names: [String: Set<String>] = [:]
        for update in changes.updates {
            let properties = update.entity.persistentProperties
            let indexes =
                changes.updateColumns[update.columns].map(\.index) + update.savedForeignKeys.keys
                + update.joinRelationships
            names[update.entity.name, default: []].formUnion(indexes.map { properties[$0].name })
        }
        return names
    }

    /// `batch` with the version each model of its entity this context holds was read at: a row the batch deletes
    /// that moved since is a conflict under `.error`. Models deleted by this save (their deletes check them) and
    /// faults (never read) are left out.
    private func withReadVersions(_ batch: StoreChanges.BatchDelete) -> StoreChanges.BatchDelete {
        guard let map = registry.map(of: batch.entity.identityKey), !map.isEmpty else { return batch }
        var checked = batch
        for model in map.registered {
            let data = model.persistentBackingData
            guard !data.isDeleted, data.unloadedProperties == nil, let key = data.primaryKey else { continue }
            checked.readVersions[key] = data.rowVersion
        }
        return checked
    }

    /// A changed model's saved values, taken out while its save runs. A struct, not a tuple: an array of tuples is
    /// freed through the runtime's generic tuple destroy, one call per element.
    private struct TakenSavedValues {
        let data: ModelBackingData
        let savedValues: SavedValues
        let version: Int64
    }

    /// Gives the models of conflicts the merge policy resolved the stored values they didn't keep, and the row's
    /// version now.
    private func adoptStoredValues(_ conflicts: [StoreSaveResult.ResolvedConflict]) {
        for conflict in conflicts {
            guard let model = registry.model(conflict.primaryKey, of: conflict.entity) else { continue }
            let data = model.persistentBackingData
            var adopted: [Int] = []
            for index in conflict.entity.columnPropertyIndexes
            where !conflict.kept.contains(index)
                && conflict.entity.relationshipInfos[index] == nil && index < conflict.storedValues.count
                && data.values[index] != conflict.storedValues[index]
            {
                data.values[index] = conflict.storedValues[index]
                data.decodedValues[index] = nil
                adopted.append(index)
            }
            data.rowVersion = conflict.version
            if !adopted.isEmpty { notifyObservers(of: model, properties: adopted) }
        }
    }

    private func entity(of model: any PersistentModel) throws -> Schema.Entity {
        if let entity = model.persistentBackingData.entity { return entity }
        guard let entity = store.schema.entity(forType: type(of: model)) else {
            throw StrataError.unknownEntity(String(describing: type(of: model)))
        }
        return entity
    }

    private func checkEncoding(_ data: ModelBackingData, entity: Schema.Entity) throws {
        guard let (index, error) = data.encodingFailures.min(by: { $0.key < $1.key }) else { return }
        throw StrataError.unrepresentableValue(
            entity: entity.name, property: entity.persistentProperties[index].name, reason: "\(error)")
    }

    /// Makes the inserted models registered ones, each backed by the row of its key (in order), and returns
    /// their identifiers.
    private func registerInserted(
        _ inserted: [any PersistentModel], keys: [Int64], upsertedVersions: [Int: Int64]
    ) -> [PersistentIdentifier] {
        var identifiers: [PersistentIdentifier] = []
        identifiers.reserveCapacity(inserted.count)
        // Each entity's identity map is taken out while its models register (a save inserts runs of one entity),
        // so registering looks up neither the map nor, on a copy, the whole map again.
        var current: (entity: ObjectIdentifier, map: IdentityMap)?
        defer { if let current { registry.restoreMap(current.map, of: current.entity) } }
        var savedOwners: [ObjectIdentifier: (entity: Schema.Entity, keys: [Int64])] = [:]
        for (position, (model, primaryKey)) in zip(inserted, keys).enumerated() {
            let data = model.persistentBackingData
            if let entity = data.entity, current?.entity != entity.identityKey {
                if let current { registry.restoreMap(current.map, of: current.entity) }
                var map = registry.takeMap(of: entity.identityKey)
                // Room for the rest of this save's models at once (exact for a run of one entity), rather than
                // growing step by step while they register.
                map.reserveCapacity(map.count + inserted.count - position)
                current = (entity.identityKey, map)
            }
            if data.entity != nil, let previous = current?.map[primaryKey], previous !== model {
                // An upsert: the stored row now holds the inserted model's values, so the model that was
                // registered for it takes them too and leaves the identity map to the inserted one.
                let previousData = previous.persistentBackingData
                previousData.values.replace(with: data.values.copy)
                previousData.decodedValues = data.decodedValues
                previousData.clearSavedValues()
                previousData.rowVersion = upsertedVersions[position] ?? 0
                changedModels[ObjectIdentifier(previous)] = nil
            }
            // An insert's row starts at version 0; an upsert's row has the version its update gave it.
            if !upsertedVersions.isEmpty { data.rowVersion = upsertedVersions[position] ?? 0 }
            data.primaryKey = primaryKey
            data.state = .registered
            data.commitChanges()
            if let entity = data.entity {
                current?.map[primaryKey] = model
                if !entity.relationshipInfos.isEmpty {
                    savedOwners[ObjectIdentifier(entity), default: (entity, [])].keys.append(primaryKey)
                }
            }
            let identifier = model.persistentModelID
            if let temporary = data.issuedTemporaryIdentifier { permanentIdentifiers[temporary] = identifier }
            identifiers.append(identifier)
        }
        if let registering = current {
            registry.restoreMap(registering.map, of: registering.entity)
            current = nil
        }
        // Saved, their unread relationships load together with those of the models fetched.
        for (entity, keys) in savedOwners.values { noteRegisteredOwners(keys, of: entity) }
        return identifiers
    }

    /// Takes the registered models of `keys`' rows of `entity`, which the save deleted, out of the context, and adds
    /// each row's identifier to `identifiers`.
    private func unregisterRowsGone(
        _ keys: [Int64], of entity: Schema.Entity, into identifiers: inout [PersistentIdentifier]
    ) {
        let entityKey = entity.identityKey
        let storeIdentifier = store.storeIdentifier(for: entity)
        identifiers.reserveCapacity(identifiers.count + keys.count)
        for key in keys {
            // Looked up in place: a copy of the identity map kept while `unregister` changes it would copy it.
            if let model = registry[entityKey, key] {
                identifiers.append(model.persistentModelID)
                unregister(model)
            } else {
                identifiers.append(
                    PersistentIdentifier(
                        entityName: entity.name, storeIdentifier: storeIdentifier, key: .permanent(key)))
            }
        }
    }

    private func unregister(_ model: any PersistentModel) {
        let data = model.persistentBackingData
        if let entity = data.entity, let key = data.primaryKey {
            registry.remove(key, of: entity.identityKey, ifItIs: model)
        }
        data.state = .deletedAndSaved
        data.clearSavedValues()
    }
}
