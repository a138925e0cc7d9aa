import Foundation

/// One save applied to a copy of a custom store's ``CustomStoreImage``, in the order ``SaveSequence`` writes a save
/// to SQL — deletes, batch deletes, updates, inserts, then foreign keys and join rows once every insert has its key —
/// noting every row whose snapshot the save changes, so the store is sent each of them.
///
/// A custom store keeps no row versions and no unique constraints Strata can see: there are no conflicts to resolve,
/// and inserts are always new models.
struct CustomStoreSave {
    /// The image before the save: deleted models' snapshots come from it.
    let original: CustomStoreImage
    /// The image with the save applied.
    private(set) var image: CustomStoreImage
    let schema: Schema
    /// Rows whose snapshot the save changes: written rows, and the rows their relationships reach.
    private(set) var touched: Set<CustomStoreImage.RowID> = []
    /// The snapshots of the models deleted, as they were.
    private(set) var deleted: [DefaultSnapshot] = []
    /// The key given to each insert, by its position in the save.
    private(set) var insertedKeys: [Int64] = []
    /// The temporary identifier of each inserted key, which the store's snapshots name until it remaps them.
    private(set) var temporary: [Int64: PersistentIdentifier] = [:]
    /// The batch deletes' keys, for the save's result.
    private(set) var batchDeletedKeys: [[Int64]] = []

    init(image: CustomStoreImage, schema: Schema) {
        self.original = image
        self.image = image
        self.schema = schema
    }

    /// Applies `changes` in ``SaveSequence``'s order.
    /// - Throws: what judging a batch delete's condition throws.
    mutating func apply(_ changes: StoreChanges) throws {
        for change in changes.deletes { delete(change.primaryKey, of: change.entity) }
        for batch in changes.batchDeletes { try applyBatchDelete(batch) }
        applyUpdates(changes.updates, columns: changes.updateColumns)
        applyInserts(changes.inserts)
        applyForeignKeys(changes.foreignKeyUpdates)
        applyJoins(changes.joinInserts, inserting: true)
        applyJoins(changes.joinDeletes, inserting: false)
    }

    /// The snapshots to send: each insert's, then every other touched row's (and `alsoTouched`'s) in row order.
    func snapshots(
        of inserts: [StoreChanges.Insert], alsoTouched: Set<CustomStoreImage.RowID>
    ) -> (inserted: [DefaultSnapshot], updated: [DefaultSnapshot]) {
        let insertedRows = Set(
            inserts.indices.map { CustomStoreImage.RowID(entity: inserts[$0].entity.name, key: insertedKeys[$0]) })
        let inserted = inserts.indices.compactMap { position in
            image.snapshot(of: insertedKeys[position], in: inserts[position].entity, temporary: temporary)
        }
        let updated = touched.union(alsoTouched).sorted { ($0.entity, $0.key) < ($1.entity, $1.key) }.compactMap {
            row -> DefaultSnapshot? in
            guard !insertedRows.contains(row), let entity = schema.entity(named: row.entity) else { return nil }
            return image.snapshot(of: row.key, in: entity, temporary: temporary)
        }
        return (inserted, updated)
    }

    /// Binds each inserted key to the identifier the store gave it, keeping the temporary one too (a snapshot the
    /// store kept with it still finds the model), and registers the snapshots the store asked to.
    mutating func record(remapped: [PersistentIdentifier: PersistentIdentifier], reregistered: [DefaultSnapshot]) {
        for key in insertedKeys {
            guard let old = temporary[key] else { continue }
            image.bind(key, to: old)
            image.bind(key, to: remapped[old] ?? old)
        }
        for snapshot in reregistered {
            guard let entity = schema.entity(named: snapshot.persistentIdentifier.entityName) else { continue }
            image.merge(snapshot, entity: entity)
        }
    }

    // MARK: The steps

    /// Removes a row, its join rows and the foreign keys naming it; every row that referred to it is touched.
    private mutating func delete(_ key: Int64, of entity: Schema.Entity) {
        guard image.rows[entity.name]?[key] != nil else { return }
        if let snapshot = original.snapshot(of: key, in: entity, temporary: [:]) { deleted.append(snapshot) }
        for (name, other) in image.remove(key, of: entity, schema: schema) {
            touch(name, other)
        }
        touch(entity.name, key)
        touchRelated(key, of: entity)
    }

    /// Deletes the rows the batch's condition matches in the image as the batch finds it, in ascending key order.
    private mutating func applyBatchDelete(_ batch: StoreChanges.BatchDelete) throws {
        let before = image
        var keys = (before.rows[batch.entity.name] ?? [:]).keys.sorted()
        if let condition = batch.condition {
            keys = try keys.filter { key in
                try before.evaluator(of: key, in: batch.entity).isSatisfied(condition)
            }
        }
        for key in keys { delete(key, of: batch.entity) }
        batchDeletedKeys.append(keys)
    }

    /// Writes each update's attributes (relationships are written by their own steps) and changed columns.
    private mutating func applyUpdates(_ updates: [StoreChanges.Update], columns: [StoreChanges.UpdateColumn]) {
        for update in updates where image.rows[update.entity.name]?[update.primaryKey] != nil {
            if let values = update.values {
                for property in update.entity.persistentProperties
                where update.entity.relationshipInfos[property.index] == nil {
                    image.rows[update.entity.name]?[update.primaryKey]?.values[property.index] = values[property.index]
                }
            }
            for column in columns[update.columns] {
                image.rows[update.entity.name]?[update.primaryKey]?.values[column.index] = column.value
            }
            touch(update.entity.name, update.primaryKey)
        }
    }

    /// Adds each insert's row under a new key, without its to-many relationships (join rows and other rows'
    /// foreign keys hold them).
    private mutating func applyInserts(_ inserts: [StoreChanges.Insert]) {
        for insert in inserts {
            let key = image.newKey()
            var values = [StoredValue](repeating: .null, count: insert.entity.persistentProperties.count)
            for property in insert.entity.persistentProperties where property.index < insert.values.count {
                if let info = insert.entity.relationshipInfos[property.index], info.isToMany { continue }
                values[property.index] = insert.values[property.index]
            }
            image.rows[insert.entity.name, default: [:]][key] = CustomStoreImage.Row(values: values)
            insertedKeys.append(key)
            temporary[key] = .temporary(entityName: insert.entity.name)
        }
    }

    /// Points each foreign key at its target, touching the rows it stops and starts naming.
    private mutating func applyForeignKeys(_ updates: [StoreChanges.ForeignKeyUpdate]) {
        for update in updates {
            let row = key(of: update.row)
            guard let property = update.entity.property(named: update.column),
                image.rows[update.entity.name]?[row] != nil
            else { continue }
            if let info = update.entity.relationshipInfos[property.index] {
                for old in image.related(row, of: update.entity, through: info) {
                    touch(info.destination.name, old)
                }
                if let target = update.target {
                    touch(info.destination.name, key(of: target))
                }
            }
            let value = update.target.map { StoredValue.integer(key(of: $0)) } ?? .null
            image.rows[update.entity.name]?[row]?.values[property.index] = value
            touch(update.entity.name, row)
        }
    }

    /// Adds or removes join rows, touching both ends.
    private mutating func applyJoins(_ joins: [StoreChanges.JoinChange], inserting: Bool) {
        for change in joins {
            let owner = key(of: change.owner)
            let target = key(of: change.target)
            let row = CustomStoreImage.JoinRow(columns: [change.ownerColumn: owner, change.targetColumn: target])
            if inserting {
                image.joins[change.table, default: []].insert(row)
            } else {
                image.joins[change.table]?.remove(row)
            }
            touch(change.entity.name, owner)
            if let info = change.entity.property(named: change.relationship).flatMap({
                change.entity.relationshipInfos[$0.index]
            }) {
                touch(info.destination.name, target)
            }
        }
    }

    // MARK: Helpers

    /// A stored row's key, or the key an insert of this save was given.
    private func key(of reference: StoreChanges.RowReference) -> Int64 {
        switch reference {
        case .stored(let key): key
        case .inserted(let position): insertedKeys[position]
        }
    }

    /// A row's to-many lists derive from other rows' foreign keys and join rows: whoever it points at changes too.
    private mutating func touchRelated(_ key: Int64, of entity: Schema.Entity) {
        for (_, info) in entity.relationshipInfos {
            for target in image.related(key, of: entity, through: info) {
                touch(info.destination.name, target)
            }
        }
    }

    private mutating func touch(_ entity: String, _ key: Int64) {
        touched.insert(CustomStoreImage.RowID(entity: entity, key: key))
    }
}
