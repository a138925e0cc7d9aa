import Strata

/// Inserts: runs of plain inserts pipelined, upserts one by one (each looks its unique row up first).
extension PostgresSaveWriter {
    /// Writes every insert in order, appending its key to `result.insertedKeys`. A run of inserts that can't meet
    /// a stored row (no upsert, no foreign key in a uniqueness constraint waiting for an earlier insert's key) is
    /// sent as one pipeline; the others are written one at a time.
    /// - Throws: `StrataError.uniqueConstraintViolation`, or `PostgresError`.
    mutating func writeInserts(_ changes: StoreChanges, into result: inout StoreSaveResult) throws {
        let inserts = changes.inserts
        let uniqueForeignKeys = changes.uniqueForeignKeys
        func isPlain(_ position: Int) -> Bool { uniqueForeignKeys[position] == nil && !upserts(inserts[position].entity) }
        var sql: [String: String] = [:]
        var position = 0
        while position < inserts.count {
            guard isPlain(position) else {
                let foreignKeys = uniqueForeignKeys[position].map { StoreChanges.resolved($0, insertedKeys: result.insertedKeys) } ?? [:]
                let key = try write(inserts[position], position: position, foreignKeys: foreignKeys)
                result.insertedKeys.append(key)
                // An upsert changed a stored row: recorded as an update of every column it wrote.
                if upsertedVersions[position] != nil {
                    history?.record(.update, inserts[position].entity, row: key,
                                    attributes: inserts[position].entity.historyAttributeNames(inserts[position].entity.columnPropertyIndexes))
                } else {
                    history?.record(.insert, inserts[position].entity, row: key)
                }
                position += 1
                continue
            }
            let start = position
            while position < inserts.count, isPlain(position) { position += 1 }
            try pipeline(position - start, entity: { inserts[start + $0].entity }) { offset in
                let insert = inserts[start + offset]
                let text = sql[insert.entity.name] ?? insertSQL(insert.entity, upserts: false)
                sql[insert.entity.name] = text
                return .init(text, insertedValues(insert, foreignKeys: [:]))
            } result: { offset, inserted in
                let entity = inserts[start + offset].entity
                guard inserted.count > 0 else {
                    throw StrataError.storeFailure(operation: "save", reason: "inserting into \(entity.name) returned no primary key")
                }
                let key = inserted.int64(row: 0, column: 0)
                result.insertedKeys.append(key)
                history?.record(.insert, entity, row: key)
            }
        }
    }

    /// Whether inserts of `entity` are upserts: under `.mergeByPropertyObjectTrump`, where a uniqueness constraint
    /// can meet a stored row.
    private func upserts(_ entity: Schema.Entity) -> Bool {
        mergePolicy == .mergeByPropertyObjectTrump && !entity.uniquenessConstraints.isEmpty
    }

    /// The values an insert writes, by column (`columnPropertyIndexes`), with `foreignKeys` resolved.
    private func insertedValues(_ insert: StoreChanges.Insert, foreignKeys: [Int: StoredValue]) -> [StoredValue] {
        insert.entity.columnPropertyIndexes.map { foreignKeys[$0] ?? ($0 < insert.values.count ? insert.values[$0] : .null) }
    }

    /// The `INSERT … RETURNING` of one row of `entity`; `ON CONFLICT DO NOTHING` for an upsert.
    private func insertSQL(_ entity: Schema.Entity, upserts: Bool) -> String {
        let columns = entity.columnPropertyIndexes
        let names = columns.map { column(entity, $0) }.joined(separator: ", ")
        let placeholders = columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")
        let body = columns.isEmpty ? "DEFAULT VALUES" : "(\(names)) VALUES (\(placeholders))"
        return "INSERT INTO \(table(entity)) \(body)\(upserts ? " ON CONFLICT DO NOTHING" : "") RETURNING \(primaryKey)"
    }

    /// Writes one insert, or under `.mergeByPropertyObjectTrump` updates the row holding the same unique values:
    /// looked up first (NULL matching NULL, as on SQLite), and again when a concurrent transaction inserted it
    /// between the lookup and `INSERT … ON CONFLICT DO NOTHING`.
    private mutating func write(_ insert: StoreChanges.Insert, position: Int, foreignKeys: [Int: StoredValue]) throws -> Int64 {
        let entity = insert.entity
        let values = insertedValues(insert, foreignKeys: foreignKeys)
        let upserts = self.upserts(entity)
        if upserts, let existing = try existingRow(entity, values: values) {
            return try overwrite(existing, entity: entity, values: values, position: position)
        }
        let inserted = try run(entity, insertSQL(entity, upserts: upserts), values)
        if inserted.count > 0 { return inserted.int64(row: 0, column: 0) }
        guard let existing = try existingRow(entity, values: values) else {
            throw StrataError.uniqueConstraintViolation(entity: entity.name, properties: entity.uniquenessConstraints.first ?? [])
        }
        return try overwrite(existing, entity: entity, values: values, position: position)
    }

    /// Writes every column of `existing` (an upsert), recording its new version.
    private mutating func overwrite(_ existing: Int64, entity: Schema.Entity, values: [StoredValue], position: Int) throws -> Int64 {
        let columns = entity.columnPropertyIndexes
        let assignments = (columns.enumerated().map { "\(column(entity, $1)) = $\($0 + 1)" } + [bump]).joined(separator: ", ")
        let updated = try run(entity, "UPDATE \(table(entity)) SET \(assignments) WHERE \(primaryKey) = $\(columns.count + 1) RETURNING \(version)",
                              values + [.integer(existing)])
        if updated.count > 0 { upsertedVersions[position] = updated.int64(row: 0, column: 0) }
        return existing
    }

    /// The row holding the same values as `values` (by column position) for any uniqueness constraint.
    private func existingRow(_ entity: Schema.Entity, values: [StoredValue]) throws -> Int64? {
        let columns = entity.columnPropertyIndexes
        for constraint in entity.uniquenessConstraints {
            let properties = constraint.compactMap(entity.property(named:))
            guard !properties.isEmpty else { continue }
            var bindings: [StoredValue] = []
            let condition = properties.map { property -> String in
                let value = columns.firstIndex(of: property.index).map { values[$0] } ?? .null
                if case .null = value { return "\(column(entity, property.index)) IS NULL" }
                bindings.append(value)
                return "\(column(entity, property.index)) = $\(bindings.count)"
            }.joined(separator: " AND ")
            let rows = try run(entity, "SELECT \(primaryKey) FROM \(table(entity)) WHERE \(condition) LIMIT 1 FOR UPDATE", bindings)
            if rows.count > 0 { return rows.int64(row: 0, column: 0) }
        }
        return nil
    }
}
