import Foundation

extension ModelContext {
    /// Inserts a model: it is saved by the next `save()`.
    ///
    /// Inserting a model that is already in this context does nothing. A model of a class outside the
    /// container's schema is not inserted, and the next `save()` throws `StrataError.unknownEntity`.
    public func insert<T: PersistentModel>(_ model: T) {
        insertAny(model)
    }

    /// Inserts a model and, as SwiftData does, every model it references that is not in a context yet.
    @usableFromInline
    func insertAny(_ model: any PersistentModel) {
        let data = model.persistentBackingData
        if data.isLookupPlaceholder {
            placeholderInsertions.append(model.persistentModelID)
            return
        }
        let key = ObjectIdentifier(model)
        switch data.state {
        case .inserted, .registered:
            if data.context === self { return }
        case .deleted where data.context === self:
            deletedModels[key] = nil
            data.state = .registered
            if data.hasChanges { changedModels[key] = model }
            // A `delete(model:)` made before this insert must not remove the row the model is stored in again.
            if let primaryKey = data.primaryKey, let entity = data.entity {
                keepFromPendingBatchDeletes(primaryKey, of: entity)
            }
            registerUndoOfInsert(model)
            scheduleAutosave()
            return
        case .detached, .deleted, .deletedAndSaved:
            break
        }
        guard let entity = store.schema.entity(forType: type(of: model)) else {
            unknownInsertions.append(String(describing: type(of: model)))
            return
        }
        // A model of another context still missing properties reads them from its own store and context first:
        // from here on both are this context's.
        if data.unloadedProperties != nil, data.state == .registered || data.state == .deleted {
            data.loadUnloadedProperties()
        }
        data.context = self
        data.entity = entity
        data.state = .inserted
        insertedModels.append(model)
        registerUndoOfInsert(model)
        // `let` properties live in the model's own storage: their values join the backing data now, to be saved.
        for index in entity.constantPropertyIndexes { entity.persistentProperties[index].captureConstant(of: model) }
        // Relationships assigned before the insert: bring their models in and set the inverses now.
        if !data.relationshipTargets.isEmpty {
            for (index, info) in entity.relationshipInfos.sorted(by: { $0.key < $1.key }) {
                guard let targets = data.relationshipTargets[index], !targets.isEmpty else { continue }
                for target in targets { insertIfDetached(target) }
                if !info.inverses.isEmpty {
                    relationshipDidChange(of: model, at: index, added: targets, removed: [])
                }
            }
        }
        scheduleAutosave()
    }

    /// Deletes a model: its row is removed by the next `save()`. Deleting an inserted model that was never saved
    /// just forgets it.
    public func delete<T: PersistentModel>(_ model: T) {
        guard removeFromContext(model) else { return }
        registerUndoOfDelete(model)
        applyDeleteRules(to: model)
        scheduleAutosave()
    }

    /// Takes a model of this context out: an unsaved insert is forgotten, a stored model is marked deleted (its
    /// row goes at the next save). Returns whether it was in the context to take out.
    func removeFromContext(_ model: any PersistentModel) -> Bool {
        let data = model.persistentBackingData
        let key = ObjectIdentifier(model)
        guard data.context === self else { return false }
        switch data.state {
        case .inserted:
            insertedModels.removeAll { $0 === model }
            data.state = .detached
            data.context = nil
        case .registered:
            deletedModels[key] = model
            changedModels[key] = nil
            data.state = .deleted
        case .detached, .deleted, .deletedAndSaved:
            return false
        }
        return true
    }

    /// Applies each relationship's delete rule to a model just deleted: cascade deletes the related models,
    /// nullify takes the model out of their inverse relationship; deny is checked by `save()`.
    private func applyDeleteRules(to model: any PersistentModel) {
        let data = model.persistentBackingData
        guard let entity = data.entity else { return }
        for (index, info) in entity.relationshipInfos.sorted(by: { $0.key < $1.key }) {
            switch info.deleteRule {
            case .cascade:
                for target in data.relatedModels(at: index) { delete(target) }
            case .nullify:
                let targets = data.relatedModels(at: index).filter { !$0.persistentBackingData.isDeleted }
                for inverse in info.inverses {
                    for target in targets { takeOut(model, from: target, inverse: inverse) }
                }
            case .deny, .noAction:
                continue
            }
        }
    }

    /// Takes a deleted model out of `target`'s relationship `inverse` (nullify).
    private func takeOut(
        _ model: any PersistentModel, from target: any PersistentModel, inverse: Schema.RelationshipInfo
    ) {
        let targetData = target.persistentBackingData
        let current = targetData.relatedModels(at: inverse.index)
        registerUndoOfRelationshipChange(of: target, at: inverse.index, from: current)
        targetData.relationshipTargets[inverse.index] = current.filter { $0 !== model }
        targetData.changedRelationships.insert(inverse.index)
        if targetData.state == .registered { changedModels[ObjectIdentifier(target)] = target }
        notifyObservers(of: target, properties: [inverse.index])
    }

    /// Deletes every stored model of a class that matches a predicate (all of them when `predicate` is `nil`),
    /// at the next save. Matching models already in the context are marked deleted now, and matching
    /// unsaved inserts are dropped.
    ///
    /// ```swift
    /// try context.delete(model: Book.self, where: #Predicate { $0.publisher == "Ace" })
    /// try context.save()
    /// ```
    /// - Throws: `StrataError.unknownEntity`, or `StrataError.unsupportedPredicate` when the predicate can't
    ///   run in the store.
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true
    ) throws {
        try throwingSwiftDataErrors {
            let entity = try entity(for: model)
            let condition = try predicate.map {
                try PredicateTranslator.translate($0, entity: entity, permanentIdentifiers: permanentIdentifiers)
            }
            try delete(T.self, entity: entity, where: condition, includeSubclasses: includeSubclasses)
        }
    }

    /// Deletes every stored model of a class that matches a Core Data format predicate, at the next save, as
    /// `delete(model:where:)` does for a `Predicate`.
    ///
    /// ```swift
    /// try context.delete(model: Book.self, where: FormatPredicate(format: "publisher == %@", "Ace"))
    /// ```
    /// - Throws: `StrataError.unknownEntity`, `StrataError.unsupportedPredicate` when the predicate can't run
    ///   in the store, or the predicate's `PredicateFormatError`.
    public func delete<T: PersistentModel>(
        model: T.Type, where predicate: FormatPredicate, includeSubclasses: Bool = true
    ) throws {
        try throwingSwiftDataErrors {
            let entity = try entity(for: model)
            let condition = try FormatTranslator.translate(predicate, entity: entity)
            try delete(T.self, entity: entity, where: condition, includeSubclasses: includeSubclasses)
        }
    }

    /// Marks the stored models matching `condition` deleted, drops the unsaved inserts matching it (judged as the
    /// store judges rows, so integer overflow throws instead of trapping as `Predicate.evaluate` would), and
    /// schedules the batch delete.
    /// Without `includeSubclasses`, only models of exactly `T` are deleted: the store's rows of its entity alone.
    private func delete<T: PersistentModel>(
        _: T.Type, entity: Schema.Entity, where condition: QueryExpression?,
        includeSubclasses: Bool
    ) throws {
        let entityKey = entity.identityKey
        let excludesSubentities = !includeSubclasses && !entity.childEntities.isEmpty
        let storeCondition =
            excludesSubentities
            ? QueryExpression.and([Schema.Entity.entityFilter([entity])] + (condition.map { [$0] } ?? [])) : condition
        var request = StoreFetch(entity: entity, columns: nil, condition: storeCondition)
        // The matching rows are only needed to mark registered models deleted; with none registered the query
        // still runs, with `LIMIT 0`, so a condition the store refuses fails here rather than at the save.
        if registry.count(of: entityKey) == 0 { request.limit = 0 }
        // Everything is judged before anything is deleted, so a failure leaves the context as it was.
        let keys = try store.fetchKeys(request)
        let inserts = try insertedModelsArray.compactMap { $0 as? T }.filter { model in
            guard !excludesSubentities || Swift.type(of: model) == T.self else { return false }
            return try condition.map {
                try QueryEvaluator(entity: entity, backingData: model.persistentBackingData).isSatisfied($0)
            } ?? true
        }
        for key in keys {
            // Looked up in place: deleting can register faults (delete rules), and a copy held meanwhile would copy.
            if let model = registry[entityKey, key] { delete(model) }
        }
        for model in inserts { delete(model) }
        pendingBatchDeletes.append(StoreChanges.BatchDelete(entity: entity, condition: storeCondition))
        registerUndoOfBatchDelete(at: pendingBatchDeletes.count - 1)
        scheduleAutosave()
    }

    /// Discards every unsaved change: changed properties return to their saved values, inserted models are
    /// forgotten, deleted models come back. As in Core Data, the undo manager forgets the context's operations.
    public func rollback() {
        removeUndoActions()
        for model in Array(changedModels.values) + Array(deletedModels.values) {
            let data = model.persistentBackingData
            let reverted = Set(data.savedValues.keys).union(data.changedRelationships)
            data.revertChanges()
            if data.state == .deleted { data.state = .registered }
            notifyObservers(of: model, properties: reverted)
        }
        for model in insertedModels {
            model.persistentBackingData.state = .detached
            model.persistentBackingData.context = nil
        }
        changedModels.removeAll()
        deletedModels.removeAll()
        insertedModels.removeAll()
        pendingBatchDeletes.removeAll()
        batchDeleteKeptKeys.removeAll()
        unknownInsertions.removeAll()
        placeholderInsertions.removeAll()
    }

    /// Changes are tracked as they happen, so only the autosave is left to process: with `autosaveEnabled`, the
    /// pending changes are saved now (a failure is kept in `autosaveError`), as a context whose executor Strata
    /// doesn't know has no later moment to save them.
    public func processPendingChanges() {
        if autosaveEnabled, hasChanges { runScheduledAutosave() }
    }

    /// Runs `block`, then saves.
    ///
    /// - Throws: what `block` throws (after rolling back its changes), or what `save()` throws.
    public func transaction(block: () throws -> Void) throws {
        do {
            try block()
        } catch {
            rollback()
            throw error
        }
        try save()
    }

    /// Called by a model's backing data when one of its properties changes.
    @usableFromInline
    func modelDidChange(_ model: some PersistentModel) {
        let data = model.persistentBackingData
        guard data.state == .registered else { return }
        let key = ObjectIdentifier(model)
        if !data.hasChanges {
            changedModels[key] = nil
        } else {
            changedModels[key] = model
        }
        scheduleAutosave()
    }
}

extension ModelContext {
    /// Tells a model's observers that some of its properties changed behind its setters.
    func notifyObservers(of model: any PersistentModel, properties indexes: some Sequence<Int>) {
        // A model nothing has read has no registrar, and so no observers to tell.
        let data = model.persistentBackingData
        guard data.hasObservationRegistrar, let entity = data.entity else { return }
        for index in indexes where index < entity.persistentProperties.count {
            entity.persistentProperties[index].notifyObservers(of: model)
        }
    }
}
