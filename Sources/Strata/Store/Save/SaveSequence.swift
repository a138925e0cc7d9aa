/// One save in no store's SQL, run through a store's ``SaveExecutor``: it owns the order of the writes — deletes,
/// batch deletes, updates (conflicts resolved by the merge policy, every one reported before the save fails),
/// inserts and upserts, then foreign keys and join-table rows — the order of rows within each, and a
/// ``SaveJournal`` of what each step did, from which every store's history is derived.
///
/// Every write of a stored row applies only while the row has the version the model read, checked by the writing
/// statement itself; a row changed elsewhere meanwhile goes to the merge policy (``SaveSequence+Conflicts``).
package struct SaveSequence<Executor: SaveExecutor> {
    package let executor: Executor
    let mergePolicy: MergePolicy
    let storeIdentifier: String
    /// What the save did, for its history; `nil` for a store that keeps none.
    package internal(set) var journal: SaveJournal?
    let statements: SaveStatements<Executor.Dialect>
    var result = StoreSaveResult()
    var conflicts: [MergeConflict] = []

    /// - Parameters:
    ///   - recordsHistory: whether to keep the journal the history is derived from.
    ///   - statementCache: the store's statements of earlier saves, which this one reuses and adds to.
    package init(
        executor: Executor, mergePolicy: MergePolicy, storeIdentifier: String, recordsHistory: Bool,
        statementCache: SaveStatementCache
    ) {
        self.executor = executor
        self.mergePolicy = mergePolicy
        self.storeIdentifier = storeIdentifier
        statements = SaveStatements(
            dialect: executor.dialect, rowLock: executor.rowLock, insertedKeys: executor.insertedKeys,
            cache: statementCache)
        if recordsHistory { journal = SaveJournal() }
    }

    /// Writes `changes`: its conditions first (``StoreSaveCondition``), then deletes (so a deleted unique value can
    /// be reused), batch deletes, updates, inserts, foreign keys and join rows (once every insert has its key).
    /// - Throws: `StrataError.mergeConflict` (under `.error`, after every update), `StrataError.uniqueConstraintViolation`,
    ///   or the executor's error; the caller's transaction then writes nothing.
    package mutating func write(_ changes: StoreChanges) throws -> StoreSaveResult {
        try checkConditions(changes.conditions)
        try writeDeletes(SaveRowOrder.sorted(changes.deletes, referrersFirst: true))
        for batch in changes.batchDeletes { try writeBatchDelete(batch) }
        var foreignKeys = UpdatedRowForeignKeys.of(changes)
        // Filtered only when some update writes nothing: filtering copies every update.
        let updates =
            changes.updates.allSatisfy(\.writesRow) ? changes.updates : changes.updates.filter(\.writesRow)
        try writeUpdates(SaveRowOrder.sorted(updates), changes.updateColumns, foreignKeys: &foreignKeys)
        // Every conflict is listed before the save fails; throwing rolls the whole transaction back.
        if !conflicts.isEmpty { throw StrataError.mergeConflict(conflicts) }
        try writeInserts(changes)
        try writeForeignKeys(
            changes.resolvedForeignKeyUpdates(insertedKeys: result.insertedKeys), writtenWithRows: foreignKeys.written)
        try writeJoins(StoreChanges.resolved(changes.joinDeletes, insertedKeys: result.insertedKeys), inserting: false)
        try writeJoins(StoreChanges.resolved(changes.joinInserts, insertedKeys: result.insertedKeys), inserting: true)
        return result
    }

    /// Deletes each row whose version is still the one its model read; a row that changed goes to the merge
    /// policy (``deleteConflict(_:)``). With history, the preserved values come back from the `DELETE` itself.
    private mutating func writeDeletes(_ deletes: [StoreChanges.Delete]) throws {
        let returning = journal != nil
        try executor.run(deletes.count) { index in
            let delete = deletes[index]
            return SaveStatement(
                statements.delete(delete.entity, checked: true, returningPreserved: returning),
                .values([.integer(delete.primaryKey), .integer(delete.version)]))
        } result: { index, deleted in
            let delete = deletes[index]
            if deleted.affectedRows > 0 {
                let preserved =
                    deleted.count > 0
                    ? delete.entity.preservedPropertyIndexes.indices.map {
                        deleted.storedValue(row: 0, column: Int32($0))
                    } : []
                journal?.deleted(delete.entity, row: delete.primaryKey, preserved: preserved)
            } else if let conflict = try deleteConflict(delete) {
                conflicts.append(conflict)
            }
        }
    }

    /// Deletes the rows a batch delete matches, keys reported in ascending order, after the rows they cascade to
    /// (``writeCascades(of:)``). Under `.error`, a deleted row the context holds whose version moved since it was
    /// read is a conflict (``batchDeleteConflicts(_:_:skipping:)``).
    private mutating func writeBatchDelete(_ batch: StoreChanges.BatchDelete) throws {
        let rows = BatchDeleteRows.matching(batch.entity, batch.condition)
        try writeCascades(of: rows)
        // With history, the preserved values of the deleted rows come back with their keys, for the tombstones.
        let preserved = journal == nil ? [] : batch.entity.preservedPropertyIndexes
        let checks = mergePolicy == .error && !batch.readVersions.isEmpty
        let names = batch.entity.persistentProperties.map(\.name)
        var columns = preserved.map { names[$0] }
        if checks { columns += [StoreLayout.versionColumn] + batch.entity.columnPropertyIndexes.map { names[$0] } }
        let deleted = try executor.deleteRows(rows, returning: columns)
        if checks { batchDeleteConflicts(batch, deleted, skipping: preserved.count) }
        result.batchDeletedKeys.append(noteDeleted(deleted, of: batch.entity, preserving: preserved.count))
    }

    /// Deletes the rows that `ON DELETE CASCADE` would remove with `rows`, deepest first, each chain's with one
    /// statement, and notes them as deleted (``StoreSaveResult/cascadeDeletedKeys``). A cascaded row is not
    /// version-checked, as the store's cascade never was.
    private mutating func writeCascades(of rows: BatchDeleteRows) throws {
        for cascade in rows.cascades {
            try writeCascades(of: cascade)
            let entity = cascade.entity
            let preserved = journal == nil ? [] : entity.preservedPropertyIndexes
            let names = entity.persistentProperties.map(\.name)
            let deleted = try executor.deleteRows(cascade, returning: preserved.map { names[$0] })
            guard !deleted.keys.isEmpty else { continue }
            let keys = noteDeleted(deleted, of: entity, preserving: preserved.count)
            result.cascadeDeletedKeys.append(StoreSaveResult.CascadeDeleted(entity: entity, keys: keys))
        }
    }

    /// Notes `deleted`'s rows in the journal in key order, with the first `preserving` values of each as its
    /// preserved values, and returns their keys in that order.
    private mutating func noteDeleted(
        _ deleted: SaveDeletedRows, of entity: Schema.Entity, preserving preserved: Int
    ) -> [Int64] {
        let keys = deleted.keys
        guard preserved > 0 else {
            // The keys alone, sorted as they are (a cascade's come in the order of their foreign key's index).
            let sortedKeys = keys.inKeyOrder()
            journal?.deleted(entity, rows: sortedKeys)
            return sortedKeys
        }
        // Each key read once, not once per comparison.
        let order = keys.indices.sorted { keys[$0] < keys[$1] }
        for row in order {
            journal?.deleted(entity, row: keys[row], preserved: Array(deleted.values[row].prefix(preserved)))
        }
        return order.map { keys[$0] }
    }

    /// Writes each update's changed columns while the row's version is still the one its model read (a
    /// relationship-only change still checks and bumps it), with the foreign keys of the row that join it
    /// (``UpdatedRowForeignKeys``); a row that changed goes to the merge policy (``resolveConflict(_:columns:)``).
    private mutating func writeUpdates(
        _ updates: [StoreChanges.Update], _ updateColumns: [StoreChanges.UpdateColumn],
        foreignKeys: inout UpdatedRowForeignKeys
    ) throws {
        // Updates of the shapes of the last two reuse their statement and the history's list of changed properties.
        var statementsByShape = RecentUpdateShapes<SaveSQL>()
        var namesByShape = RecentUpdateShapes<String>()
        // The columns each update writes with the foreign keys that join it and those foreign-key updates
        // (positions), by update; written once the update finds its row.
        var joinedForeignKeys: [Int: (columns: ArraySlice<StoreChanges.UpdateColumn>, positions: [Int])] = [:]
        let keys = foreignKeys
        // Each update's fields are read in place: a copy of an update retains its entity, its values and its
        // relationship lists, twice per row.
        try updates.withUnsafeBufferPointer { updates in
            try executor.run(updates.count) { index in
                let entity = updates[index].entity
                var columns = updateColumns[updates[index].columns]
                if !updates[index].savedForeignKeys.isEmpty, let joined = keys.joined(updates[index], columns) {
                    columns = joined.columns
                    joinedForeignKeys[index] = joined
                }
                let bindings = SaveBindings.update(
                    columns, key: updates[index].primaryKey, version: updates[index].version)
                let sql = statementsByShape.value(for: entity, columns: columns) {
                    statements.checkedUpdate(entity, columns: columns)
                }
                return SaveStatement(sql, bindings)
            } result: { index, updated in
                let joined = joinedForeignKeys.removeValue(forKey: index)
                if updated.affectedRows > 0, let joined { foreignKeys.markWritten(joined.positions) }
                let entity = updates[index].entity
                if updated.affectedRows == 0 {
                    let update = updates[index]
                    let written = try resolveConflict(update, columns: updateColumns[update.columns])
                    if !written.isEmpty {
                        journal?.updated(
                            entity, row: update.primaryKey, attributes: entity.historyAttributeNames(written))
                    }
                } else if journal != nil, case let columns = joined?.columns ?? updateColumns[updates[index].columns],
                    !columns.isEmpty
                {
                    // The foreign keys written with the row are named with its attributes (``writeForeignKeys``
                    // leaves them out); a relationship-only update of another kind (a version bump) is recorded
                    // with its relationship change.
                    let names = namesByShape.value(for: entity, columns: columns) {
                        statements.checkedUpdate(entity, columns: columns).historyAttributeNames
                            ?? entity.historyAttributeNames(columns.lazy.map(\.index))
                    }
                    journal?.updated(entity, row: updates[index].primaryKey, attributes: names)
                }
            }
        }
    }

    /// Writes each foreign key not written with its row's update (`writtenWithRows`, by position in the save's
    /// foreign-key updates) once every insert has its key; the history notes each of them, in order (a row's
    /// update named the others).
    private mutating func writeForeignKeys(
        _ updates: [StoreChanges.ResolvedForeignKey], writtenWithRows: [Bool]
    ) throws {
        let unwritten = updates.filter { !writtenWithRows[$0.position] }
        try executor.run(unwritten.count) { index in
            let update = unwritten[index]
            return SaveStatement(
                statements.foreignKey(update.entity, column: update.column),
                .values([update.target, .integer(update.row)]))
        } result: { _, _ in
            // The history notes them below, in order.
        }
        for update in updates where update.isStoredRow && !writtenWithRows[update.position] {
            journal?.relationshipChanged(update.entity, row: update.row, name: update.column)
        }
    }

    /// Adds (or removes) join-table rows once every insert has its key; a row already there is left as it is.
    private mutating func writeJoins(_ joins: [StoreChanges.ResolvedJoin], inserting: Bool) throws {
        try executor.run(joins.count) { index in
            let join = joins[index]
            return SaveStatement(
                statements.join(join.change, inserting: inserting),
                .values([.integer(join.owner), .integer(join.target)]))
        } result: { index, _ in
            let join = joins[index]
            if case .stored = join.change.owner {
                journal?.relationshipChanged(join.change.entity, row: join.owner, name: join.change.relationship)
            }
        }
    }
}

extension StoreChanges.Update {
    /// Whether the update writes its row: it changed attributes, or relationships whose change checks and bumps
    /// the row's version.
    var writesRow: Bool { !columns.isEmpty || !savedForeignKeys.isEmpty || !joinRelationships.isEmpty }
}

/// The one order of rows within a save's deletes and updates: by entity name, then primary key. In the order a
/// context happens to hold its models they would dirty the tables' pages at random, and a large save would spill
/// and rewrite the same pages many times.
enum SaveRowOrder {
    /// `changes` in row order. Sorts plain positions (each entity's name compared once, to rank it), so no change
    /// is copied while sorting and the comparison is inlined.
    ///
    /// With `referrersFirst` (deletes), an entity whose to-one relationships reach another entity of the save comes
    /// before it, so a row is gone before the row its foreign key names: a required to-one's key can't be left
    /// naming a deleted row (`ON DELETE RESTRICT`), even for a moment.
    /// Changes already in row order are returned as they are; each change's entity and key are read in place
    /// (a copy of a change retains its parts), and an entity is looked up only where a run of its changes starts.
    static func sorted<Change: SaveRowChange>(_ changes: [Change], referrersFirst: Bool = false) -> [Change] {
        guard changes.count > 1 else { return changes }
        let order = changes.withUnsafeBufferPointer { changes in
            var ranks: [ObjectIdentifier: Int] = [:]
            var entities: [Schema.Entity] = []
            var lastEntity: ObjectIdentifier?
            for position in changes.indices {
                let entity = ObjectIdentifier(changes[position].entity)
                guard entity != lastEntity else { continue }
                lastEntity = entity
                if ranks[entity] == nil {
                    ranks[entity] = entities.count
                    entities.append(changes[position].entity)
                }
            }
            var byName = entities.indices.sorted { entities[$0].name < entities[$1].name }
            if referrersFirst, entities.count > 1 { byName = referrersBeforeReferenced(byName, entities) }
            for (rank, index) in byName.enumerated() { ranks[ObjectIdentifier(entities[index])] = rank }
            lastEntity = nil
            var lastRank = 0
            var inOrder = true
            var order: [RowPosition] = []
            order.reserveCapacity(changes.count)
            for position in changes.indices {
                let entity = ObjectIdentifier(changes[position].entity)
                if entity != lastEntity { (lastEntity, lastRank) = (entity, ranks[entity] ?? 0) }
                let next = RowPosition(entity: lastRank, row: changes[position].primaryKey, position: position)
                if inOrder, let previous = order.last, next < previous { inOrder = false }
                order.append(next)
            }
            if !inOrder { order.sort() }
            return inOrder ? nil : order
        }
        guard let order else { return changes }
        return order.map { changes[$0.position] }
    }

    /// `order` (positions in `entities`, by name) rearranged so that an entity whose to-one foreign keys name
    /// another entity's table comes before it; among entities free to go next, the first by name. Entities that
    /// name each other (a cycle) keep their order by name.
    private static func referrersBeforeReferenced(_ order: [Int], _ entities: [Schema.Entity]) -> [Int] {
        // How many entities of the save reference each one (by table: a hierarchy shares one).
        var referrers = Array(repeating: Set<Int>(), count: entities.count)
        for (referrer, entity) in entities.enumerated() {
            let destinations = Set(
                entity.relationshipInfos.values.compactMap { info -> ObjectIdentifier? in
                    guard !info.isToMany, case .foreignKey = info.storage else { return nil }
                    return info.destination.identityKey
                })
            for (referenced, other) in entities.enumerated()
            where referenced != referrer && other.identityKey != entity.identityKey
                && destinations.contains(other.identityKey)
            {
                referrers[referenced].insert(referrer)
            }
        }
        var placed = Set<Int>()
        var result: [Int] = []
        while result.count < order.count {
            // The first by name whose referrers are all placed; in a cycle, the first by name left.
            guard
                let next = order.first(where: { !placed.contains($0) && referrers[$0].isSubset(of: placed) })
                    ?? order.first(where: { !placed.contains($0) })
            else { break }
            placed.insert(next)
            result.append(next)
        }
        return result
    }

    /// Where a change goes in row order: by entity rank, then primary key, then the change's position.
    private struct RowPosition: Comparable {
        let entity: Int
        let row: Int64
        let position: Int

        static func < (lhs: RowPosition, rhs: RowPosition) -> Bool {
            (lhs.entity, lhs.row, lhs.position) < (rhs.entity, rhs.row, rhs.position)
        }
    }
}

/// A change to one stored row, which a save orders by row.
protocol SaveRowChange {
    var entity: Schema.Entity { get }
    var primaryKey: Int64 { get }
}

extension StoreChanges.Update: SaveRowChange {}
extension StoreChanges.Delete: SaveRowChange {}
