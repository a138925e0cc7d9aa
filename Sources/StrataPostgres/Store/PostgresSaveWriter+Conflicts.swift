import Strata

/// Optimistic locking: what a save does with a row another writer saved after the model was read, as on SQLite.
/// The stored row is read `FOR UPDATE`, so no other transaction changes it between the read and the merge.
extension PostgresSaveWriter {
    /// The row as stored now: its version and its values by property index; `nil` when it was deleted.
    func storedRow(_ entity: Schema.Entity, _ key: Int64) throws -> (version: Int64, values: [StoredValue])? {
        let columns = entity.columnPropertyIndexes
        let names = ([version] + columns.map { column(entity, $0) }).joined(separator: ", ")
        let rows = try run(entity, "SELECT \(names) FROM \(table(entity)) WHERE \(primaryKey) = $1 FOR UPDATE", [.integer(key)])
        guard rows.count > 0 else { return nil }
        var values = [StoredValue](repeating: .null, count: entity.properties.count)
        for (offset, index) in columns.enumerated() { values[index] = rows.storedValue(row: 0, column: Int32(offset + 1)) }
        return (rows.int64(row: 0, column: 0), values)
    }

    /// Under `.error` the conflict of a delete whose row changed since it was read; under every other policy the
    /// row is deleted anyway. A row already deleted elsewhere is no conflict.
    mutating func deleteConflict(_ delete: StoreChanges.Delete) throws -> MergeConflict? {
        guard let stored = try storedRow(delete.entity, delete.primaryKey) else { return nil }
        guard mergePolicy == .error else {
            try run(delete.entity, "DELETE FROM \(table(delete.entity)) WHERE \(primaryKey) = $1", [.integer(delete.primaryKey)])
            history?.recordDelete(delete.entity, row: delete.primaryKey, preserved: delete.entity.preservedPropertyIndexes.map { stored.values[$0] })
            return nil
        }
        return MergeConflict(delete.entity, delete.primaryKey, storeIdentifier: storeIdentifier, isDeletion: true,
                             expected: delete.version, stored: stored, conflicting: [])
    }

    /// Resolves an update whose row changed (or went) since the model was read, as the merge policy says.
    /// - Returns: the indexes of the properties written.
    func resolveConflict(_ update: StoreChanges.Update, columns: ArraySlice<StoreChanges.UpdateColumn>,
                         into result: inout StoreSaveResult, conflicts: inout [MergeConflict]) throws -> [Int] {
        let entity = update.entity
        guard let stored = try storedRow(entity, update.primaryKey) else {
            if mergePolicy == .error {
                conflicts.append(MergeConflict(entity, update.primaryKey, storeIdentifier: storeIdentifier, isDeletion: false,
                                               expected: update.version, stored: nil, conflicting: []))
            }
            return []
        }
        guard let written = mergePolicy.writtenColumns(update, columns, stored: stored.values) else {
            conflicts.append(MergeConflict(entity, update.primaryKey, storeIdentifier: storeIdentifier, isDeletion: false,
                                           expected: update.version, stored: stored,
                                           conflicting: update.propertiesChangedElsewhere(columns, stored: stored.values)))
            return []
        }
        let bumpsForRelationships = mergePolicy.bumpsVersion(forRelationshipsOf: update)
        if !written.isEmpty || bumpsForRelationships {
            let assignments = (written.enumerated().map { "\(column(entity, $1.index)) = $\($0 + 1)" } + [bump]).joined(separator: ", ")
            try run(entity, "UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = $\(written.count + 1)",
                    written.map(\.value) + [.integer(update.primaryKey)])
        }
        result.resolvedConflicts.append(StoreSaveResult.ResolvedConflict(
            entity: entity, primaryKey: update.primaryKey, storedValues: stored.values,
            kept: Set(written.map(\.index)), version: written.isEmpty && !bumpsForRelationships ? stored.version : stored.version + 1))
        return written.map(\.index)
    }
}
