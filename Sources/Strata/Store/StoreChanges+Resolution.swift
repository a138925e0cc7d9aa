/// What every store's save does alike with a set of changes: which foreign keys an insert writes with its row, and
/// how a merge policy resolves a row changed elsewhere. Stores differ only in the SQL they run.
extension StoreChanges {
    /// The foreign keys of inserted rows that a uniqueness constraint includes (`#Unique<Visit>([\.trip, \.date])`),
    /// by insert position, then property index: these are written with the row rather than after every insert.
    package var uniqueForeignKeys: [Int: [Int: RowReference?]] {
        var found: [Int: [Int: RowReference?]] = [:]
        for update in foreignKeyUpdates {
            guard case .inserted(let position) = update.row,
                  update.entity.uniquenessConstraints.contains(where: { $0.contains(update.column) }),
                  let property = update.entity.property(named: update.column) else { continue }
            found[position, default: [:]][property.index] = .some(update.target)
        }
        return found
    }

    /// The values of `foreignKeys` known before the next insert: stored rows, rows inserted earlier in this save,
    /// and nil. A row inserted later gets its key from the foreign-key update after every insert.
    package static func resolved(_ foreignKeys: [Int: RowReference?], insertedKeys: [Int64]) -> [Int: StoredValue] {
        var values: [Int: StoredValue] = [:]
        for (index, target) in foreignKeys {
            switch target {
            case nil: values[index] = .null
            case .stored(let key)?: values[index] = .integer(key)
            case .inserted(let position)? where position < insertedKeys.count: values[index] = .integer(insertedKeys[position])
            case .inserted?: continue
            }
        }
        return values
    }
}

extension MergePolicy {
    /// The properties an update whose row changed elsewhere writes under this policy, given the row as stored now
    /// (by property index); `nil` under `.error`, which reports the conflict instead.
    package func writtenColumns(
        _ update: StoreChanges.Update, _ columns: ArraySlice<StoreChanges.UpdateColumn>, stored: [StoredValue]
    ) -> [StoreChanges.UpdateColumn]? {
        switch self {
        case .error: nil
        case .mergeByPropertyObjectTrump: Array(columns)
        case .mergeByPropertyStoreTrump: columns.filter { stored[$0.index] == $0.saved }
        case .overwrite:
            update.values.map { values in
                update.entity.columnPropertyIndexes.map { StoreChanges.UpdateColumn(index: $0, value: values[$0], saved: .null) }
            } ?? Array(columns)
        case .rollback: []
        }
    }
}

extension MergeConflict {
    /// The conflict of a row of `entity` changed (or deleted) elsewhere since it was read at version `expected`;
    /// `stored` is the row as stored now (`nil`: deleted), `conflicting` the property indexes changed elsewhere.
    package init(_ entity: Schema.Entity, _ key: Int64, storeIdentifier: String, isDeletion: Bool, expected: Int64,
                 stored: (version: Int64, values: [StoredValue])?, conflicting: [Int]) {
        var values: [String: String] = [:]
        if let stored {
            for index in entity.columnPropertyIndexes where entity.relationshipInfos[index] == nil {
                values[entity.properties[index].name] = stored.values[index].description
            }
        }
        self.init(
            entityName: entity.name,
            persistentModelID: PersistentIdentifier(entityName: entity.name, storeIdentifier: storeIdentifier, key: .permanent(key)),
            isDeletion: isDeletion, conflictingProperties: conflicting.map { entity.properties[$0].name },
            storedValues: values, expectedVersion: expected, storedVersion: stored?.version)
    }
}
