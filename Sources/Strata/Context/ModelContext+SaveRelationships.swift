extension ModelContext {
    /// Checks deny delete rules (of `deleted`), required to-one relationships and relationship count limits (of
    /// `ruled`, the inserted and changed models whose entity has either) before anything is written.
    func validateRelationships(ruled: [any PersistentModel], deleted: [any PersistentModel]) throws {
        for model in deleted {
            let data = model.persistentBackingData
            guard let entity = data.entity else { continue }
            for (index, info) in entity.relationshipInfos where info.deleteRule == .deny {
                let remaining = data.relatedModels(at: index).filter { !$0.persistentBackingData.isDeleted }
                if !remaining.isEmpty {
                    throw StrataError.deleteDenied(entity: entity.name, relationship: info.name, count: remaining.count)
                }
            }
        }
        for model in ruled {
            let data = model.persistentBackingData
            guard let entity = data.entity, !entity.relationshipInfos.isEmpty else { continue }
            for (index, info) in entity.relationshipInfos where !info.isToMany && !info.isOptional {
                let target = data.relatedModels(at: index).first
                if target?.persistentBackingData.isDeleted ?? true {
                    throw StrataError.missingRequiredRelationship(entity: entity.name, relationship: info.name)
                }
            }
            for (index, info) in entity.relationshipInfos
            where info.isToMany && (info.minimumModelCount > 0 || info.maximumModelCount > 0) {
                let count = data.relatedModels(at: index).filter { !$0.persistentBackingData.isDeleted }.count
                if count < info.minimumModelCount || (info.maximumModelCount > 0 && count > info.maximumModelCount) {
                    throw StrataError.relationshipCountViolation(
                        entity: entity.name, relationship: info.name, count: count,
                        minimum: info.minimumModelCount, maximum: info.maximumModelCount)
                }
            }
        }
    }

    /// Adds the foreign keys and join-table rows of assigned relationships to a save's changes: every relationship
    /// of the `inserted` models, the assigned ones of the `changed` models.
    func addRelationshipChanges(
        to changes: inout StoreChanges, inserted: [any PersistentModel], changed: [any PersistentModel]
    ) {
        let models = [inserted, changed].joined()
        guard models.contains(where: { !($0.persistentBackingData.entity?.relationshipInfos.isEmpty ?? true) }) else {
            return
        }
        var insertPositions: [ObjectIdentifier: Int] = [:]
        for (position, model) in inserted.enumerated() { insertPositions[ObjectIdentifier(model)] = position }
        func reference(_ model: any PersistentModel) -> StoreChanges.RowReference? {
            if let position = insertPositions[ObjectIdentifier(model)] { return .inserted(position) }
            let data = model.persistentBackingData
            guard !data.isDeleted, data.context === self, let key = data.primaryKey else { return nil }
            return .stored(key)
        }
        for model in models {
            let data = model.persistentBackingData
            guard let entity = data.entity, !entity.relationshipInfos.isEmpty, let owner = reference(model) else {
                continue
            }
            let isInserted = insertPositions[ObjectIdentifier(model)] != nil
            for (index, info) in entity.relationshipInfos {
                guard isInserted || data.changedRelationships.contains(index) else { continue }
                let targets = data.relationshipTargets[index] ?? []
                switch info.storage {
                case .foreignKey:
                    let target = targets.first.flatMap(reference)
                    if isInserted && target == nil { continue }
                    changes.foreignKeyUpdates.append(
                        .init(entity: entity, row: owner, column: info.name, target: target))
                case .inverseForeignKey:
                    continue
                case .joinTable(let table, let ownerColumn, let targetColumn):
                    let current = Set(targets.map { ObjectIdentifier($0) })
                    let added =
                        isInserted
                        ? targets : (data.joinAdditions[index] ?? []).filter { current.contains(ObjectIdentifier($0)) }
                    let removed =
                        isInserted
                        ? [] : (data.joinRemovals[index] ?? []).filter { !current.contains(ObjectIdentifier($0)) }
                    for target in added {
                        guard let target = reference(target) else { continue }
                        changes.joinInserts.append(
                            .init(
                                table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owner: owner,
                                target: target, entity: entity, relationship: info.name))
                    }
                    for target in removed {
                        guard let target = reference(target) else { continue }
                        changes.joinDeletes.append(
                            .init(
                                table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owner: owner,
                                target: target, entity: entity, relationship: info.name))
                    }
                }
            }
        }
    }

    /// The foreign key stored for each changed to-one relationship of a saved model's own row, by property index:
    /// a change to one is a change to the row, checked against and bumping its version.
    static func savedForeignKeys(of data: ModelBackingData, entity: Schema.Entity) -> [Int: StoredValue] {
        let changed = data.changedRelationships
        guard !changed.isEmpty else { return [:] }
        var saved: [Int: StoredValue] = [:]
        for index in changed {
            guard let info = entity.relationshipInfos[index], case .foreignKey = info.storage else { continue }
            saved[index] = data.values[index]
        }
        return saved
    }

    /// The changed relationships of a saved model stored in join tables, by property index: a change to one is a
    /// change to the model's row, checked against and bumping its version. Only a model whose row was read has a
    /// version to check; a fault (nothing read yet) writes its join rows unchecked.
    static func checkedJoinRelationships(of data: ModelBackingData, entity: Schema.Entity) -> [Int] {
        let changed = data.changedRelationships
        guard !changed.isEmpty, data.unloadedProperties == nil else { return [] }
        return changed.filter { index in
            guard let info = entity.relationshipInfos[index], case .joinTable = info.storage else { return false }
            return true
        }.sorted()
    }

    /// After a save, the stored foreign key of each to-one relationship is its target's key.
    func recordSavedForeignKeys(of data: ModelBackingData) {
        guard let entity = data.entity, !entity.relationshipInfos.isEmpty else { return }
        for (index, info) in entity.relationshipInfos where !info.isToMany {
            // Read in place: a to-one's target is held without an array.
            let stored = data.relationshipTargets.firstTarget(at: index)
            guard stored.isStored else { continue }
            data.values[index] = stored.model?.persistentBackingData.primaryKey.map { .integer($0) } ?? .null
        }
        data.commitRelationshipChanges()
    }
}

extension Schema.RelationshipInfo {
    /// Whether a save checks the relationship of every saved model: a required to-one, or a to-many with a count
    /// limit.
    var hasSaveRule: Bool {
        isToMany ? minimumModelCount > 0 || maximumModelCount > 0 : !isOptional
    }
}
