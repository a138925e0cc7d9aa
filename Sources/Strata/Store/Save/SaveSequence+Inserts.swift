/// Inserts: runs of plain inserts as one batch; runs of upserts of one entity in three batches (lookups, inserts,
/// overwrites); other upserts one by one (each looks its unique row up first).
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
            if let run = upsertRun(from: position, inserts: inserts, uniqueForeignKeys: uniqueForeignKeys) {
                try writeUpserts(run, of: inserts)
                position = run.upperBound
                continue
            }
            guard isPlain(position) else {
                let insert = inserts[position]
                let foreignKeys =
                    uniqueForeignKeys[position].map { StoreChanges.resolved($0, insertedKeys: result.insertedKeys) }
                    ?? [:]
                let key = try write(insert, position: position, foreignKeys: foreignKeys)
                record(insert.entity, key: key, position: position)
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

    /// The run of upserts starting at `start` that can be written together: consecutive inserts of one entity with a
    /// single uniqueness constraint and no foreign key in it; `nil` when fewer than two.
    private func upsertRun(
        from start: Int, inserts: [StoreChanges.Insert], uniqueForeignKeys: [Int: [Int: StoreChanges.RowReference?]]
    ) -> Range<Int>? {
        let entity = inserts[start].entity
        guard upserts(entity), entity.uniquenessConstraints.count == 1, uniqueForeignKeys[start] == nil else {
            return nil
        }
        var end = start + 1
        while end < inserts.count, inserts[end].entity === entity, uniqueForeignKeys[end] == nil { end += 1 }
        return end - start > 1 ? start..<end : nil
    }

    /// Writes a run of upserts (``upsertRun(from:inserts:uniqueForeignKeys:)``) as one upsert at a time would, in
    /// three batches: every row's unique values looked up, the rows not found inserted (`ON CONFLICT DO NOTHING`),
    /// then, in order, each row found overwritten — and each insert that met a row after all (a concurrent insert,
    /// or an earlier row of the run with the same values) written on its own.
    private mutating func writeUpserts(_ run: Range<Int>, of inserts: [StoreChanges.Insert]) throws {
        let entity = inserts[run.lowerBound].entity
        var existing = [Int64?](repeating: nil, count: run.count)
        let constraint = entity.uniquenessConstraints[0]
        let lookups: [(offset: Int, statement: SaveStatement)] = run.enumerated().compactMap { offset, position in
            uniqueRowLookup(inserts[position], constraint: constraint, foreignKeys: [:]).map { (offset, $0) }
        }
        try executor.run(lookups.count) { index in
            lookups[index].statement
        } result: { index, rows in
            if rows.count > 0 { existing[lookups[index].offset] = rows.int64(row: 0, column: 0) }
        }
        let new = existing.indices.filter { existing[$0] == nil }
        var keys = existing
        let sql = statements.insert(entity, ignoringConflicts: true)
        try executor.run(new.count) { offset in
            SaveStatement(
                sql,
                .row(inserts[run.lowerBound + new[offset]], columns: entity.columnPropertyIndexes, foreignKeys: [:]))
        } result: { offset, inserted in
            keys[new[offset]] = inserted.insertedKey
        }
        for offset in 0..<run.count {
            let position = run.lowerBound + offset
            let key: Int64
            if let found = existing[offset] {
                key = try overwrite(found, with: inserts[position], foreignKeys: [:], position: position)
            } else if let inserted = keys[offset] {
                key = inserted
            } else {
                key = try write(inserts[position], position: position, foreignKeys: [:])
            }
            record(entity, key: key, position: position)
        }
    }

    /// Appends the key of the insert at `position` to the result and notes it for history: an upsert that changed
    /// a stored row as an update of every column it wrote, any other as an insert.
    private mutating func record(_ entity: Schema.Entity, key: Int64, position: Int) {
        result.insertedKeys.append(key)
        if result.upsertedVersions[position] != nil {
            journal?.updated(entity, row: key, attributes: entity.historyAttributeNames(entity.columnPropertyIndexes))
        } else {
            journal?.inserted(entity, row: key)
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
        for constraint in insert.entity.uniquenessConstraints {
            guard let lookup = uniqueRowLookup(insert, constraint: constraint, foreignKeys: foreignKeys) else {
                continue
            }
            let rows = try executor.run(lookup)
            if rows.count > 0 { return rows.int64(row: 0, column: 0) }
        }
        return nil
    }

    /// The query for the key of the row holding `insert`'s values for `constraint` (NULL matching NULL); `nil`
    /// when the constraint names no stored property.
    private func uniqueRowLookup(
        _ insert: StoreChanges.Insert, constraint: [String], foreignKeys: [Int: StoredValue]
    ) -> SaveStatement? {
        let entity = insert.entity
        let properties = constraint.compactMap(entity.property(named:)).map(\.index)
        guard !properties.isEmpty else { return nil }
        let values = properties.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
        let nulls = values.map { if case .null = $0 { true } else { false } }
        let sql = statements.uniqueRow(entity, properties: properties, nulls: nulls)
        return SaveStatement(sql, .values(values.filter { if case .null = $0 { false } else { true } }))
    }
}
