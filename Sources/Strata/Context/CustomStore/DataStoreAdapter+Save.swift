import Foundation

extension DataStoreAdapter {
    /// Applies the changes to a copy of the image, sends the models they touch to the store as one
    /// `DataStoreSaveChangesRequest`, and keeps the copy only once the store has saved: a store that throws leaves
    /// the image, and the saving context, as they were.
    ///
    /// A custom store keeps no row versions and no unique constraints Strata can see: the merge policy doesn't
    /// apply, and inserts are always new models. The store's own save commits by itself, so `beforeCommit` runs
    /// just before it.
    func save(
        _ changes: StoreChanges, mergePolicy: MergePolicy, beforeCommit: () throws -> Void
    ) throws -> StoreSaveResult {
        if let condition = changes.conditions.first {
            throw StrataError.storeFailure(
                operation: "save",
                reason: "a third-party DataStore can't run a save's SQL condition (\(condition.description))")
        }
        return try locked {
            try readUnreadEntities()
            var working = image
            var touched: Set<RowID> = []
            var deleted: [DefaultSnapshot] = []
            var result = StoreSaveResult()

            func delete(_ key: Int64, of entity: Schema.Entity) {
                guard working.rows[entity.name]?[key] != nil else { return }
                if let snapshot = image.snapshot(of: key, in: entity, temporary: [:]) { deleted.append(snapshot) }
                for (name, other) in working.remove(key, of: entity, schema: schema) {
                    touched.insert(RowID(entity: name, key: other))
                }
                touched.insert(RowID(entity: entity.name, key: key))
                touchRelated(key, of: entity)
            }
            // A row's to-many lists derive from other rows' foreign keys and join rows: whoever it points at
            // changes too.
            func touchRelated(_ key: Int64, of entity: Schema.Entity) {
                for (_, info) in entity.relationshipInfos {
                    for target in working.related(key, of: entity, through: info) {
                        touched.insert(RowID(entity: info.destination.name, key: target))
                    }
                }
            }

            for change in changes.deletes { delete(change.primaryKey, of: change.entity) }
            for batch in changes.batchDeletes {
                let request = StoreFetch(entity: batch.entity, columns: nil, condition: batch.condition)
                let snapshotImage = working
                var keys = Array((snapshotImage.rows[batch.entity.name] ?? [:]).keys).sorted()
                if let condition = request.condition {
                    keys = try keys.filter {
                        try Self.evaluator(of: $0, in: batch.entity, image: snapshotImage).isSatisfied(condition)
                    }
                }
                for key in keys { delete(key, of: batch.entity) }
                result.batchDeletedKeys.append(keys)
            }
            for update in changes.updates {
                guard working.rows[update.entity.name]?[update.primaryKey] != nil else { continue }
                if let values = update.values {
                    for property in update.entity.persistentProperties
                    where update.entity.relationshipInfos[property.index] == nil {
                        working.rows[update.entity.name]?[update.primaryKey]?.values[property.index] =
                            values[property.index]
                    }
                }
                for column in changes.updateColumns[update.columns] {
                    working.rows[update.entity.name]?[update.primaryKey]?.values[column.index] = column.value
                }
                touched.insert(RowID(entity: update.entity.name, key: update.primaryKey))
            }
            var insertedKeys: [Int64] = []
            var temporary: [Int64: PersistentIdentifier] = [:]
            for insert in changes.inserts {
                let key = working.newKey()
                var values = [StoredValue](repeating: .null, count: insert.entity.persistentProperties.count)
                for property in insert.entity.persistentProperties where property.index < insert.values.count {
                    if let info = insert.entity.relationshipInfos[property.index], info.isToMany { continue }
                    values[property.index] = insert.values[property.index]
                }
                working.rows[insert.entity.name, default: [:]][key] = CustomStoreImage.Row(values: values)
                insertedKeys.append(key)
                temporary[key] = .temporary(entityName: insert.entity.name)
            }
            func resolve(_ reference: StoreChanges.RowReference) -> Int64 {
                switch reference {
                case .stored(let key): key
                case .inserted(let position): insertedKeys[position]
                }
            }
            for update in changes.foreignKeyUpdates {
                let row = resolve(update.row)
                guard let property = update.entity.property(named: update.column),
                    working.rows[update.entity.name]?[row] != nil
                else { continue }
                if let info = update.entity.relationshipInfos[property.index] {
                    for old in working.related(row, of: update.entity, through: info) {
                        touched.insert(RowID(entity: info.destination.name, key: old))
                    }
                    if let target = update.target {
                        touched.insert(RowID(entity: info.destination.name, key: resolve(target)))
                    }
                }
                working.rows[update.entity.name]?[row]?.values[property.index] =
                    update.target.map { .integer(resolve($0)) } ?? .null
                touched.insert(RowID(entity: update.entity.name, key: row))
            }
            for (changesOfTable, isInsert) in [(changes.joinInserts, true), (changes.joinDeletes, false)] {
                for change in changesOfTable {
                    let owner = resolve(change.owner), target = resolve(change.target)
                    let row = CustomStoreImage.JoinRow(columns: [
                        change.ownerColumn: owner, change.targetColumn: target,
                    ])
                    if isInsert {
                        working.joins[change.table, default: []].insert(row)
                    } else {
                        working.joins[change.table]?.remove(row)
                    }
                    touched.insert(RowID(entity: change.entity.name, key: owner))
                    if let info = change.entity.property(named: change.relationship).flatMap({
                        change.entity.relationshipInfos[$0.index]
                    }) {
                        touched.insert(RowID(entity: info.destination.name, key: target))
                    }
                }
            }

            let insertedRows = Set(
                changes.inserts.indices.map { RowID(entity: changes.inserts[$0].entity.name, key: insertedKeys[$0]) })
            touched.formUnion(staleReferences)
            var inserted: [DefaultSnapshot] = []
            for (position, insert) in changes.inserts.enumerated() {
                if let snapshot = working.snapshot(of: insertedKeys[position], in: insert.entity, temporary: temporary)
                {
                    inserted.append(snapshot)
                }
            }
            var updated: [DefaultSnapshot] = []
            for row in touched.sorted(by: { ($0.entity, $0.key) < ($1.entity, $1.key) })
            where !insertedRows.contains(row) {
                guard let entity = schema.entity(named: row.entity),
                    let snapshot = working.snapshot(of: row.key, in: entity, temporary: temporary)
                else { continue }
                updated.append(snapshot)
            }
            guard !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) else {
                try beforeCommit()
                image = working
                return result
            }
            try beforeCommit()
            let (remapped, reregistered) = try send(
                inserted: inserted, updated: updated, deleted: deleted, author: changes.author)
            for key in insertedKeys {
                guard let old = temporary[key] else { continue }
                // A snapshot the store kept with the temporary identifier still finds the model.
                working.bind(key, to: old)
                working.bind(key, to: remapped[old] ?? old)
            }
            for snapshot in reregistered {
                guard let entity = schema.entity(named: snapshot.persistentIdentifier.entityName) else { continue }
                working.merge(snapshot, entity: entity)
            }
            image = working
            staleReferences = []
            // The store named the inserted models; models saved pointing at them under their temporary
            // identifiers are sent again with the permanent ones, so the store's data is whole on its own.
            let referencing = (inserted + updated).filter { snapshot in
                snapshot.values.values.contains { value in
                    switch value {
                    case .attribute: false
                    case .toOne(let target): target?.isTemporary == true
                    case .toMany(let targets): targets.contains(where: \.isTemporary)
                    }
                }
            }
            if !referencing.isEmpty {
                let rows = referencing.compactMap { snapshot -> RowID? in
                    let permanent = remapped[snapshot.persistentIdentifier] ?? snapshot.persistentIdentifier
                    return image.keys[permanent].map { RowID(entity: permanent.entityName, key: $0) }
                }
                let rewritten = rows.compactMap { row in
                    schema.entity(named: row.entity).flatMap { image.snapshot(of: row.key, in: $0, temporary: [:]) }
                }
                do {
                    let (_, reregistered) = try send(
                        inserted: [], updated: rewritten, deleted: [], author: changes.author)
                    for snapshot in reregistered {
                        guard let entity = schema.entity(named: snapshot.persistentIdentifier.entityName) else {
                            continue
                        }
                        image.merge(snapshot, entity: entity)
                    }
                } catch {
                    // The models are saved; their references are rewritten with the next save.
                    staleReferences = Set(rows)
                    StrataLog.log(
                        .warning,
                        "\(Store.self) \(identifier) saved the models but not yet the permanent identifiers of the new models they refer to; the next save writes them: \(error)",
                        category: "store")
                }
            }
            result.insertedKeys = insertedKeys
            return result
        }
    }

    /// Sends one save to the store.
    /// - Returns: the permanent identifier of each inserted model, by temporary identifier, and the snapshots the
    ///   store asks to register again (values it computed).
    /// - Throws: the store's error as `StrataError.storeFailure`.
    private func send(
        inserted: [DefaultSnapshot], updated: [DefaultSnapshot], deleted: [DefaultSnapshot],
        author: String?
    ) throws -> ([PersistentIdentifier: PersistentIdentifier], [DefaultSnapshot]) {
        let request = DataStoreSaveChangesRequest(
            editingState: EditingState(author: author), inserted: inserted, updated: updated, deleted: deleted)
        guard let typed = request as? DataStoreSaveChangesRequest<Store.Snapshot> else { return ([:], []) }
        let result: DataStoreSaveChangesResult<Store.Snapshot>
        do {
            result = try store.save(typed)
        } catch {
            throw storeError(error, operation: "save")
        }
        return (result.remappedIdentifiers, result.snapshotsToReregister.values.compactMap { $0 as? DefaultSnapshot })
    }
}
