/// Inserts: runs of plain inserts as one batch, upserts one by one (each looks its unique row up first).
extension SaveSequence {
    /// Writes every insert in order, appending its key to the result. A run of inserts that can't meet a stored
    /// row (no upsert, no foreign key in a uniqueness constraint waiting for an earlier insert's key) is one batch;
    /// the others are written one at a time.
    /// - Throws: `StrataError.uniqueConstraintViolation`, or the executor's error.
    mutating func writeInserts(_ changes: StoreChanges) throws {
        let inserts = changes.inserts
        let uniqueForeignKeys = changes.uniqueForeignKeys
        func isPlain(_ position: Int) -> Bool {
            uniqueForeignKeys[position] == nil && !upserts(inserts[position].entity)
        }
        result.insertedKeys.reserveCapacity(inserts.count)
        var position = 0
        while position < inserts.count {
            guard isPlain(position) else {
                let insert = inserts[position]
                let foreignKeys =
                    uniqueForeignKeys[position].map { StoreChanges.resolved($0, insertedKeys: result.insertedKeys) }
                    ?? [:]
                let key = try write(insert, position: position, foreignKeys: foreignKeys)
                result.insertedKeys.append(key)
                // An upsert changed a stored row: recorded as an update of every column it wrote.
                if result.upsertedVersions[position] != nil {
                    journal?.updated(
                        insert.entity, row: key,
                        attributes: insert.entity.historyAttributeNames(insert.entity.columnPropertyIndexes))
                } else {
                    journal?.inserted(insert.entity, row: key)
                }
                position += 1
                continue
            }
            let start = position
            while position < inserts.count, isPlain(position) { position += 1 }
            var last: (entity: Schema.Entity, sql: SaveSQL)?
            try executor.run(position - start) { offset in
                let insert = inserts[start + offset]
                if let last, last.entity === insert.entity {
                    return SaveStatement(
                        last.sql, .row(insert, columns: insert.entity.columnPropertyIndexes, foreignKeys: [:]))
                }
                let sql = statements.insert(insert.entity, ignoringConflicts: false)
                last = (insert.entity, sql)
                return SaveStatement(sql, .row(insert, columns: insert.entity.columnPropertyIndexes, foreignKeys: [:]))
            } result: { offset, inserted in
                let entity = inserts[start + offset].entity
                guard let key = inserted.insertedKey else {
                    throw StrataError.storeFailure(
                        operation: "save", reason: "inserting into \(entity.name) returned no primary key")
                }
                result.insertedKeys.append(key)
                journal?.inserted(entity, row: key)
            }
        }
    }

    /// Whether inserts of `entity` are upserts: under `.mergeByPropertyObjectTrump`, where a uniqueness constraint
    /// can meet a stored row.
    private func upserts(_ entity: Schema.Entity) -> Bool {
        mergePolicy == .mergeByPropertyObjectTrump && !entity.uniquenessConstraints.isEmpty
    }

    /// Writes one insert, or under `.mergeByPropertyObjectTrump` updates the row holding the same unique values:
    /// looked up first (NULL matching NULL), and again when a concurrent transaction inserted it between the
    /// lookup and `INSERT … ON CONFLICT DO NOTHING`. `foreignKeys` are the foreign keys known before the row
    /// exists, by property index: written with the row, so a uniqueness constraint over a to-one sees them.
    private mutating func write(
        _ insert: StoreChanges.Insert, position: Int, foreignKeys: [Int: StoredValue]
    ) throws -> Int64 {
        let entity = insert.entity
        let upserts = self.upserts(entity)
        if upserts, let existing = try existingRow(insert, foreignKeys: foreignKeys) {
            return try overwrite(existing, with: insert, foreignKeys: foreignKeys, position: position)
        }
        let inserted = try executor.run(
            SaveStatement(
                statements.insert(entity, ignoringConflicts: upserts),
                .row(insert, columns: entity.columnPropertyIndexes, foreignKeys: foreignKeys)))
        if let key = inserted.insertedKey { return key }
        guard let existing = try existingRow(insert, foreignKeys: foreignKeys) else {
            throw StrataError.uniqueConstraintViolation(
                entity: entity.name, properties: entity.uniquenessConstraints.first ?? [])
        }
        return try overwrite(existing, with: insert, foreignKeys: foreignKeys, position: position)
    }

    /// Writes every column of `existing` (an upsert); its new version comes back from the `UPDATE` itself.
    private mutating func overwrite(
        _ existing: Int64, with insert: StoreChanges.Insert, foreignKeys: [Int: StoredValue], position: Int
    ) throws -> Int64 {
        let columns = insert.entity.columnPropertyIndexes
        let values = SaveBindings.row(insert, columns: columns, foreignKeys: foreignKeys).array + [.integer(existing)]
        let updated = try executor.run(
            SaveStatement(statements.update(insert.entity, columns: columns, returningVersion: true), .values(values)))
        if updated.count > 0 { result.upsertedVersions[position] = updated.int64(row: 0, column: 0) }
        return existing
    }

    /// The row holding the same values as `insert` for any of the entity's uniqueness constraints.
    private mutating func existingRow(_ insert: StoreChanges.Insert, foreignKeys: [Int: StoredValue]) throws -> Int64? {
        let entity = insert.entity
        for constraint in entity.uniquenessConstraints {
            let properties = constraint.compactMap(entity.property(named:)).map(\.index)
            guard !properties.isEmpty else { continue }
            let values = properties.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
            let nulls = values.map { if case .null = $0 { true } else { false } }
            let sql = statements.uniqueRow(entity, properties: properties, nulls: nulls)
            let rows = try executor.run(
                SaveStatement(sql, .values(values.filter { if case .null = $0 { false } else { true } })))
            if rows.count > 0 { return rows.int64(row: 0, column: 0) }
        }
        return nil
    }
}
