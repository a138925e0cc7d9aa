import Strata

/// One row's state as sync moves it: its identity and the values of its synced properties, by property index (a
/// to-one relationship's value is the identity of the row it points to, or `NULL`), with which of them the replica
/// changed when a history says so.
struct SyncedRow {
    var identity: StoredValue
    var values: [Int: StoredValue]
    /// The properties the replica changed (`nil`: every value is to be written, as a fetch writes the hub's row).
    /// Applied to a stored row, only these are written; a row inserted (or brought back) takes every value.
    var changed: Set<Int>? = nil
    /// Whether the history that named the row inserted it: a row not inserted and missing where it is applied was
    /// deleted there.
    var isInsert = false
}

/// What one replica changed in one entity: rows as they are now, identities of rows deleted, and changes to the
/// rows' sets of links.
struct SyncedChanges {
    var rows: [SyncedRow] = []
    var deletedIdentities: [StoredValue] = []
    var links: [LinkEdit] = []

    var isEmpty: Bool { rows.isEmpty && deletedIdentities.isEmpty && links.isEmpty }
}

extension SyncedEntity {
    /// The state of each stored row of the entity whose primary key is in `keys`, by key, with every synced value;
    /// keys whose row is gone are left out.
    func rows(withKeys keys: [Int64], in context: ModelContext) throws -> [(key: Int64, row: SyncedRow)] {
        try models(withKeys: keys, in: context).compactMap { model in
            let data = model.persistentBackingData
            guard let key = data.primaryKey else { return nil }
            return (key, row(of: data, attributes: propertyIndexes))
        }
    }

    /// The state of every stored row of the entity, with the values of `indexes` (every synced property: `nil`).
    func allRows(in context: ModelContext, attributes indexes: [Int]? = nil) throws -> [SyncedRow] {
        try context.storedModels(of: entity, where: nil).map {
            row(of: $0.persistentBackingData, attributes: indexes ?? propertyIndexes)
        }
    }

    /// The identity of each stored row whose primary key is in `keys`, by key.
    func identities(ofKeys keys: [Int64], in context: ModelContext) throws -> [Int64: StoredValue] {
        var identities: [Int64: StoredValue] = [:]
        for model in try models(withKeys: keys, in: context) {
            let data = model.persistentBackingData
            if let key = data.primaryKey { identities[key] = data.storedValue(at: identityIndex) }
        }
        return identities
    }

    private func row(of data: ModelBackingData, attributes indexes: [Int]) -> SyncedRow {
        var values: [Int: StoredValue] = [:]
        for index in indexes where links[index] == nil {
            if let reference = references[index] {
                values[index] =
                    data.relatedModel(at: index)?.persistentBackingData.storedValue(at: reference.identityIndex)
                    ?? .null
            } else {
                values[index] = data.storedValue(at: index)
            }
        }
        return SyncedRow(identity: data.storedValue(at: identityIndex), values: values)
    }

    private func models(withKeys keys: [Int64], in context: ModelContext) throws -> [any PersistentModel] {
        var models: [any PersistentModel] = []
        for chunk in keys.chunked(by: Self.inListSize) {
            models += try context.storedModels(
                of: entity, where: .in(.column(StoreLayout.primaryKeyColumn), chunk.map { .value(.integer($0)) }))
        }
        return models
    }

    /// The stored models of the entity whose identity is in `identities`, by identity.
    func models(
        withIdentities identities: [StoredValue], in context: ModelContext
    ) throws -> [StoredValue: any PersistentModel] {
        var models: [StoredValue: any PersistentModel] = [:]
        for chunk in identities.chunked(by: Self.inListSize) {
            for model in try context.storedModels(
                of: entity, where: .in(.column(identityName), chunk.map { .value($0) }))
            {
                models[model.persistentBackingData.storedValue(at: identityIndex)] = model
            }
        }
        return models
    }

    /// The names of the properties at `indexes`, in the schema's order.
    func names(of indexes: Set<Int>) -> [String] {
        indexes.sorted().map { entity.persistentProperties[$0].name }
    }

    /// The most values one `IN` list holds.
    static let inListSize = 500

    /// Applies `changes` to `context` without saving: each row updates the stored model with its identity (its
    /// changed properties, other than those in `kept` of that identity, which keep the context's value) or is
    /// inserted as a new model; each deleted identity deletes its model unless a row of `changes` has that identity
    /// (deleted, then inserted again). An identity whose `kept` set is `nil` — deleted here and not yet sent — is
    /// left alone entirely. A row that was changed, not inserted, and is missing here was deleted here: `resolve`
    /// decides whether it comes back (``SyncConflict/Kind/changedHereDeletedOnHub(properties:)``); without a
    /// resolver it is inserted. To-one relationships are not set here but returned, to be set once every entity's
    /// rows are in the context.
    /// - Returns: the models of the rows, by identity, and the relationships to set.
    func apply(
        _ changes: SyncedChanges, to context: ModelContext, keeping kept: [StoredValue: Set<Int>?],
        resolving resolve: ((SyncConflict) -> SyncConflict.Resolution)? = nil
    ) throws -> (models: [StoredValue: any PersistentModel], references: [PendingReference]) {
        let live = Set(changes.rows.map(\.identity))
        let deleted = changes.deletedIdentities.filter { !live.contains($0) }
        var models = try self.models(withIdentities: Array(live) + deleted, in: context)
        var pending: [PendingReference] = []
        for row in changes.rows {
            let keep: Set<Int>
            switch kept[row.identity] {
            case .some(.none): continue
            case .some(.some(let indexes)): keep = indexes
            case .none: keep = []
            }
            let model: any PersistentModel
            var written = row.changed
            if let existing = models[row.identity] {
                model = existing
                update(existing, with: row, keeping: keep)
            } else {
                if let resolve, !row.isInsert, let changed = row.changed,
                    let identity = row.identity.syncIdentity,
                    resolve(
                        SyncConflict(
                            entityName: entity.name, identity: identity,
                            kind: .changedHereDeletedOnHub(properties: names(of: changed)))) == .keepHub
                {
                    continue
                }
                var values = row.values.filter { self.references[$0.key] == nil }
                values[identityIndex] = row.identity
                model = entity.makeNewModel(values: values)
                context.insert(model)
                models[row.identity] = model
                written = nil
            }
            for (index, target) in row.values
            where self.references[index] != nil && !keep.contains(index) && written?.contains(index) != false {
                pending.append(PendingReference(model: model, index: index, target: target))
            }
        }
        for identity in deleted where kept[identity] == nil {
            if let model = models.removeValue(forKey: identity) { context.delete(model) }
        }
        return (models, pending)
    }

    private func update(_ model: some PersistentModel, with row: SyncedRow, keeping keep: Set<Int>) {
        let data = model.persistentBackingData
        for (index, value) in row.values
        where index != identityIndex && references[index] == nil && !keep.contains(index)
            && row.changed?.contains(index) != false
        {
            if data.storedValue(at: index) != value { data.setStoredValue(value, at: index, on: model) }
        }
    }
}

/// A to-one relationship a sync sets once every row is in the context: the model, the relationship's index, and the
/// identity of the row it points to (`NULL`: none).
struct PendingReference {
    let model: any PersistentModel
    let index: Int
    let target: StoredValue
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
