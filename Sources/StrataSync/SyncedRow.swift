import Strata

/// One row's state as sync moves it: its identity and the values of the attributes that travel with it, by
/// property index.
struct SyncedRow {
    var identity: StoredValue
    var values: [Int: StoredValue]
}

/// What one replica changed in one entity: rows as they are now, and identities of rows deleted.
struct SyncedChanges {
    var rows: [SyncedRow] = []
    var deletedIdentities: [StoredValue] = []

    var isEmpty: Bool { rows.isEmpty && deletedIdentities.isEmpty }
}

extension SyncedEntity {
    /// The state of each stored row of the entity whose primary key is in `keys`, with the values of `indexes(key)`
    /// (and the identity); keys whose row is gone are left out.
    func rows(
        withKeys keys: [Int64], in context: ModelContext, attributes indexes: (Int64) -> [Int]
    ) throws -> [SyncedRow] {
        try models(withKeys: keys, in: context).compactMap { model in
            let data = model.persistentBackingData
            guard let key = data.primaryKey else { return nil }
            return row(of: data, attributes: indexes(key))
        }
    }

    /// The state of every stored row of the entity, with the values of `indexes` (every synced attribute: `nil`).
    func allRows(in context: ModelContext, attributes indexes: [Int]? = nil) throws -> [SyncedRow] {
        try context.storedModels(of: entity, where: nil).map {
            row(of: $0.persistentBackingData, attributes: indexes ?? attributeIndexes)
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
        for index in indexes { values[index] = data.storedValue(at: index) }
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

    /// The most values one `IN` list holds.
    static let inListSize = 500

    /// Applies `changes` to `context` without saving: each row updates the stored model with its identity (a
    /// property in `kept` of that identity keeps the context's value) or is inserted as a new model; each deleted
    /// identity deletes its model unless a row of `changes` has that identity (deleted, then inserted again). An
    /// identity whose `kept` set is `nil` — deleted here and not yet sent — is left alone entirely.
    func apply(_ changes: SyncedChanges, to context: ModelContext, keeping kept: [StoredValue: Set<Int>?] = [:]) throws
    {
        let live = Set(changes.rows.map(\.identity))
        let deleted = changes.deletedIdentities.filter { !live.contains($0) }
        let existing = try models(withIdentities: Array(live) + deleted, in: context)
        for row in changes.rows {
            let keep: Set<Int>
            switch kept[row.identity] {
            case .some(.none): continue
            case .some(.some(let indexes)): keep = indexes
            case .none: keep = []
            }
            if let model = existing[row.identity] {
                update(model, with: row, keeping: keep)
            } else {
                var values = row.values
                values[identityIndex] = row.identity
                insert(entity.makeNewModel(values: values), into: context)
            }
        }
        for identity in deleted where kept[identity] == nil {
            if let model = existing[identity] { delete(model, from: context) }
        }
    }

    private func update(_ model: some PersistentModel, with row: SyncedRow, keeping keep: Set<Int>) {
        let data = model.persistentBackingData
        for (index, value) in row.values where index != identityIndex && !keep.contains(index) {
            if data.storedValue(at: index) != value { data.setStoredValue(value, at: index, on: model) }
        }
    }

    private func insert(_ model: some PersistentModel, into context: ModelContext) {
        context.insert(model)
    }

    private func delete(_ model: some PersistentModel, from context: ModelContext) {
        context.delete(model)
    }
}

extension Array {
    /// The array cut into consecutive pieces of at most `size` elements.
    func chunked(by size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
