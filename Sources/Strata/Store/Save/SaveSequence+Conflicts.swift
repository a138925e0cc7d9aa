/// Optimistic locking: what a save does with a row another writer saved after the model was read. The stored row
/// is read with the executor's row lock, so no other transaction changes it between the read and the merge.
extension SaveSequence {
    /// The row as stored now: its version and its values by property index; `nil` when it was deleted.
    mutating func storedRow(_ entity: Schema.Entity, _ key: Int64) throws -> (version: Int64, values: [StoredValue])? {
        let rows = try executor.run(SaveStatement(statements.storedRow(entity), .values([.integer(key)])))
        guard rows.count > 0 else { return nil }
        var values = [StoredValue](repeating: .null, count: entity.persistentProperties.count)
        for (offset, index) in entity.columnPropertyIndexes.enumerated() {
            values[index] = rows.storedValue(row: 0, column: Int32(offset + 1))
        }
        return (rows.int64(row: 0, column: 0), values)
    }

    /// Under `.error` the conflict of a delete whose row changed since it was read; under every other policy the
    /// row is deleted anyway. A row already deleted elsewhere is no conflict: it is gone as the save asked.
    mutating func deleteConflict(_ delete: StoreChanges.Delete) throws -> MergeConflict? {
        guard let stored = try storedRow(delete.entity, delete.primaryKey) else { return nil }
        guard mergePolicy == .error else {
            _ = try executor.run(
                SaveStatement(
                    statements.delete(delete.entity, checked: false, returningPreserved: false),
                    .values([.integer(delete.primaryKey)])))
            journal?.deleted(
                delete.entity, row: delete.primaryKey,
                preserved: delete.entity.preservedPropertyIndexes.map { stored.values[$0] })
            return nil
        }
        return conflict(
            delete.entity, delete.primaryKey, isDeletion: true, expected: delete.version, stored: stored,
            conflicting: [])
    }

    /// Resolves an update whose row changed (or went) since the model was read, as the merge policy says: a
    /// conflict under `.error` (collected, thrown after every update), otherwise the columns the policy keeps
    /// written and the resolution reported in the result.
    /// - Returns: the indexes of the properties written.
    mutating func resolveConflict(
        _ update: StoreChanges.Update, columns: ArraySlice<StoreChanges.UpdateColumn>
    ) throws -> [Int] {
        let entity = update.entity
        guard let stored = try storedRow(entity, update.primaryKey) else {
            // Deleted elsewhere: it stays deleted (nothing to merge into), unless the policy is to report it.
            if mergePolicy == .error {
                conflicts.append(
                    conflict(
                        entity, update.primaryKey, isDeletion: false, expected: update.version, stored: nil,
                        conflicting: []))
            }
            return []
        }
        guard let written = mergePolicy.writtenColumns(update, columns, stored: stored.values) else {
            conflicts.append(
                conflict(
                    entity, update.primaryKey, isDeletion: false, expected: update.version, stored: stored,
                    conflicting: update.propertiesChangedElsewhere(columns, stored: stored.values)))
            return []
        }
        let bumpsForRelationships = mergePolicy.bumpsVersion(forRelationshipsOf: update)
        if !written.isEmpty || bumpsForRelationships {
            _ = try executor.run(
                SaveStatement(
                    statements.update(entity, columns: written.map(\.index), returningVersion: false),
                    .values(written.map(\.value) + [.integer(update.primaryKey)])))
        }
        result.resolvedConflicts.append(
            StoreSaveResult.ResolvedConflict(
                entity: entity, primaryKey: update.primaryKey, storedValues: stored.values,
                kept: Set(written.map(\.index)),
                version: written.isEmpty && !bumpsForRelationships ? stored.version : stored.version + 1))
        return written.map(\.index)
    }

    /// The conflicts of rows a batch delete removed that the context holds at an older version: changed elsewhere
    /// since they were read. `deleted` holds, after `skipping` values, each row's version and columns.
    mutating func batchDeleteConflicts(_ batch: StoreChanges.BatchDelete, _ deleted: SaveDeletedRows, skipping: Int) {
        let entity = batch.entity
        for (row, key) in deleted.keys.enumerated() {
            guard let read = batch.readVersions[key], row < deleted.values.count else { continue }
            let returned = deleted.values[row].dropFirst(skipping)
            guard case .integer(let version)? = returned.first, version != read else { continue }
            var values = [StoredValue](repeating: .null, count: entity.persistentProperties.count)
            for (index, value) in zip(entity.columnPropertyIndexes, returned.dropFirst()) { values[index] = value }
            conflicts.append(
                conflict(entity, key, isDeletion: true, expected: read, stored: (version, values), conflicting: []))
        }
    }

    private func conflict(
        _ entity: Schema.Entity, _ key: Int64, isDeletion: Bool, expected: Int64,
        stored: (version: Int64, values: [StoredValue])?, conflicting: [Int]
    ) -> MergeConflict {
        MergeConflict(
            entity, key, storeIdentifier: storeIdentifier, isDeletion: isDeletion, expected: expected, stored: stored,
            conflicting: conflicting)
    }
}
