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
                let property = update.entity.property(named: update.column)
            else { continue }
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
            case .inserted(let position)? where position < insertedKeys.count:
                values[index] = .integer(insertedKeys[position])
            case .inserted?: continue
            }
        }
        return values
    }
}

extension StoreChanges {
    /// A foreign key to write once every insert has its primary key.
    package struct ResolvedForeignKey {
        package let entity: Schema.Entity
        package let column: String
        package let row: Int64
        package let target: StoredValue
        /// Whether the row was stored before this save (not inserted by it).
        package let isStoredRow: Bool
        /// Where the update is in ``StoreChanges/foreignKeyUpdates``.
        package let position: Int
    }

    /// A join-table row to add or remove, with both keys known.
    package struct ResolvedJoin {
        package let change: JoinChange
        package let owner: Int64
        package let target: Int64
    }

    /// The foreign-key updates with their rows' keys, given each insert's key by position; updates of rows not
    /// written are left out, targets not written become NULL.
    package func resolvedForeignKeyUpdates(insertedKeys: [Int64]) -> [ResolvedForeignKey] {
        foreignKeyUpdates.enumerated().compactMap { position, update in
            guard let row = Self.key(update.row, insertedKeys) else { return nil }
            let target: StoredValue = update.target.flatMap { Self.key($0, insertedKeys) }.map { .integer($0) } ?? .null
            let isStoredRow = if case .stored = update.row { true } else { false }
            return ResolvedForeignKey(
                entity: update.entity, column: update.column, row: row, target: target, isStoredRow: isStoredRow,
                position: position)
        }
    }

    /// `changes` (``joinInserts`` or ``joinDeletes``) whose owner and target both have keys.
    package static func resolved(_ changes: [JoinChange], insertedKeys: [Int64]) -> [ResolvedJoin] {
        changes.compactMap { change in
            guard let owner = key(change.owner, insertedKeys), let target = key(change.target, insertedKeys) else {
                return nil
            }
            return ResolvedJoin(change: change, owner: owner, target: target)
        }
    }

    private static func key(_ reference: RowReference, _ insertedKeys: [Int64]) -> Int64? {
        switch reference {
        case .stored(let key): key
        case .inserted(let position): position < insertedKeys.count ? insertedKeys[position] : nil
        }
    }
}

extension StoreChanges.Update {
    /// The property indexes another writer changed since this update's model was read: the changed attributes
    /// whose stored value is no longer the one read, and the to-one relationships whose stored foreign key moved.
    package func propertiesChangedElsewhere(
        _ columns: ArraySlice<StoreChanges.UpdateColumn>, stored: [StoredValue]
    ) -> [Int] {
        (columns.filter { stored[$0.index] != $0.saved }.map(\.index)
            + savedForeignKeys.filter { stored[$0.key] != $0.value }.keys).sorted()
    }
}

extension MergePolicy {
    /// Whether resolving a conflicting update moves the row's version even when no attribute is written: its
    /// relationship changes are written after the updates under every policy but `.rollback`.
    package func bumpsVersion(forRelationshipsOf update: StoreChanges.Update) -> Bool {
        (!update.savedForeignKeys.isEmpty || !update.joinRelationships.isEmpty) && self != .rollback
    }

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
                update.entity.columnPropertyIndexes.map {
                    StoreChanges.UpdateColumn(index: $0, value: values[$0], saved: .null)
                }
            } ?? Array(columns)
        case .rollback: []
        }
    }
}

extension MergeConflict {
    /// The conflict of a row of `entity` changed (or deleted) elsewhere since it was read at version `expected`;
    /// `stored` is the row as stored now (`nil`: deleted), `conflicting` the property indexes changed elsewhere.
    package init(
        _ entity: Schema.Entity, _ key: Int64, storeIdentifier: String, isDeletion: Bool, expected: Int64,
        stored: (version: Int64, values: [StoredValue])?, conflicting: [Int]
    ) {
        var values: [String: String] = [:]
        if let stored {
            for index in entity.columnPropertyIndexes where entity.relationshipInfos[index] == nil {
                values[entity.persistentProperties[index].name] = stored.values[index].description
            }
        }
        self.init(
            entityName: entity.name,
            persistentModelID: PersistentIdentifier(
                entityName: entity.name, storeIdentifier: storeIdentifier, key: .permanent(key)),
            isDeletion: isDeletion, conflictingProperties: conflicting.map { entity.persistentProperties[$0].name },
            storedValues: values, expectedVersion: expected, storedVersion: stored?.version)
    }
}
