import Foundation

/// A row of a custom store's image handed to a context: column 0 the key, then the requested properties, then
/// the version (always 0: a custom store keeps none).
struct CustomStoreRow: StoreRow {
    let key: Int64
    let values: [StoredValue]

    func int64(at column: Int32) -> Int64 {
        if column == 0 { return key }
        if case .integer(let value) = storedValue(at: column) { return value }
        return 0
    }

    func storedValue(at column: Int32) -> StoredValue {
        if column == 0 { return .integer(key) }
        let index = Int(column) - 1
        return index < values.count ? values[index] : .integer(0)
    }

    func readValues(
        _ columns: StoreRowColumns, into values: ValueSlots, version: inout Int64
    ) -> Bool {
        if columns.readsVersion { version = int64(at: columns.versionColumn) }
        for (offset, column) in columns.columns.enumerated() where offset < self.values.count {
            values[column.index] = self.values[offset]
        }
        return columns.admitAll(in: values)
    }
}

extension DataStoreAdapter {
    func fetch(_ request: StoreFetch, _ body: (any StoreRow) throws -> Void) throws {
        // Rows are collected under the lock and handed over after it: `body` may read through the store again.
        let rows = try locked { () throws -> [CustomStoreRow] in
            let keys = try matchingKeys(request)
            let table = image.rows[request.entity.name] ?? [:]
            let columns = request.columns ?? []
            return keys.compactMap { key in
                table[key].map { row in CustomStoreRow(key: key, values: columns.map { row.values[$0] }) }
            }
        }
        for row in rows { try body(row) }
    }

    func count(_ request: StoreFetch) throws -> Int {
        try locked { try matchingKeys(request).count }
    }

    /// Refused: a custom store answers fetches of models, so totals are computed over the fetched models.
    /// - Throws: `StrataError.invalidAggregate`.
    func aggregate(_ request: StoreAggregate) throws -> [[StoredValue]] {
        throw StrataError.invalidAggregate(
            entity: request.entity.name, property: "its store",
            reason: "a custom DataStore answers fetches of models only; fetch the models and total them in Swift")
    }

    func fetchJoinRows(
        table: String, ownerColumn: String, targetColumn: String, owners: [Int64]
    ) throws -> [(owner: Int64, target: Int64)] {
        try locked {
            try readUnreadEntities()
            let owners = Set(owners)
            return (image.joins[table] ?? [])
                .compactMap { row -> (owner: Int64, target: Int64)? in
                    guard let owner = row.columns[ownerColumn], owners.contains(owner),
                        let target = row.columns[targetColumn]
                    else { return nil }
                    return (owner, target)
                }
                .sorted { ($0.owner, $0.target) < ($1.owner, $1.target) }
        }
    }

    /// The keys a fetch selects, in its order: the store asked first when the fetch comes from the app, then the
    /// start key, condition, key filter, order, offset and limit judged over the image.
    func matchingKeys(_ request: StoreFetch) throws -> [Int64] {
        let entity = request.entity
        try readUnreadEntities()
        var answered: Set<Int64>?
        if let descriptor = request.descriptor {
            answered = try ask(entity.modelType, descriptor: descriptor, entity: entity)
        }
        var keys = Array((image.rows[entity.name] ?? [:]).keys)
        if let answered { keys = keys.filter(answered.contains) }
        if !request.excludedKeys.isEmpty { keys = keys.filter { !request.excludedKeys.contains($0) } }
        if let startAfterKey = request.startAfterKey { keys = keys.filter { $0 > startAfterKey } }
        if let (column, filter) = request.keyFilter {
            let filter = Set(filter)
            if column == StoreLayout.primaryKeyColumn {
                keys = keys.filter(filter.contains)
            } else if let property = entity.property(named: column) {
                let table = image.rows[entity.name] ?? [:]
                keys = keys.filter { key in
                    guard case .integer(let target)? = table[key]?.values[property.index] else { return false }
                    return filter.contains(target)
                }
            }
        }
        let snapshot = image
        var evaluators = keys.map { snapshot.evaluator(of: $0, in: entity) }
        if let condition = request.condition {
            evaluators = try evaluators.filter { try $0.isSatisfied(condition) }
        }
        var ordering = request.ordering
        if ordering.isEmpty {
            ordering = [
                QueryOrdering(expression: .column(StoreLayout.primaryKeyColumn), ascending: true, collation: .binary)
            ]
        }
        try evaluators.sort { try QueryEvaluator.precedes($0, $1, orderings: ordering) }
        var selected = evaluators.compactMap(\.primaryKey)[...]
        if let offset = request.offset, offset > 0 { selected = selected.dropFirst(offset) }
        if let limit = request.limit { selected = selected.prefix(max(limit, 0)) }
        return Array(selected)
    }

    /// Asks the store for the app's descriptor (without its limit and offset, which apply after the context's
    /// pending changes are left out): the keys it answered, or `nil` when it left filtering to the container and
    /// the entity was read whole.
    private func ask<T: PersistentModel>(
        _ type: T.Type, descriptor: any Sendable, entity: Schema.Entity
    ) throws -> Set<Int64>? {
        guard var descriptor = descriptor as? FetchDescriptor<T> else { return nil }
        descriptor.fetchLimit = nil
        descriptor.fetchOffset = nil
        do {
            do {
                return try answer(descriptor, entity: entity)
            } catch DataStoreError.preferInMemorySort {
                descriptor.sortBy = []
                descriptor.sortDescriptors = []
                return try answer(descriptor, entity: entity)
            }
        } catch DataStoreError.preferInMemoryFilter {
            try read(T.self, whole: entity)
            return nil
        } catch {
            throw storeError(error, operation: "fetch \(entity.name)")
        }
    }

    private func answer<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>, entity: Schema.Entity
    ) throws -> Set<Int64>? {
        let result = try store.fetch(DataStoreFetchRequest(descriptor: descriptor, editingState: EditingState()))
        let isWhole = descriptor.predicate == nil && descriptor.formatPredicate == nil
        let fetched = take(result.fetchedSnapshots, related: result.relatedSnapshots, whole: isWhole ? entity : nil)
        return isWhole ? nil : Set(fetched.filter { $0.entity == entity.name }.map(\.key))
    }

    /// Reads every entity never read whole, so conditions and relationships see every model they may reach.
    func readUnreadEntities() throws {
        for entity in schema.entities where !image.loaded.contains(entity.name) {
            do {
                try read(entity.modelType, whole: entity)
            } catch {
                throw storeError(error, operation: "fetch \(entity.name)")
            }
        }
    }

    private func read<T: PersistentModel>(_ type: T.Type, whole entity: Schema.Entity) throws {
        let result = try store.fetch(
            DataStoreFetchRequest(descriptor: FetchDescriptor<T>(), editingState: EditingState()))
        take(result.fetchedSnapshots, related: result.relatedSnapshots, whole: entity)
    }

    /// Takes a fetch's snapshots into the image; with `whole`, the fetched snapshots of that entity are all it
    /// has, so its rows the store no longer holds go. A store may answer with models of other entities too
    /// (Apple's sample answers with everything it holds): each goes to its own entity.
    /// - Returns: the rows of the fetched snapshots.
    @discardableResult
    func take(
        _ fetched: [Store.Snapshot], related: [PersistentIdentifier: Store.Snapshot], whole entity: Schema.Entity?
    ) -> [CustomStoreImage.RowID] {
        let snapshots = fetched.compactMap { $0 as? DefaultSnapshot }
        var rows: [CustomStoreImage.RowID] = []
        if let entity {
            let present = Set(
                snapshots.filter { $0.persistentIdentifier.entityName == entity.name }.map {
                    image.key(for: $0.persistentIdentifier)
                })
            for key in (image.rows[entity.name] ?? [:]).keys where !present.contains(key) {
                image.remove(key, of: entity, schema: schema)
            }
            image.loaded.insert(entity.name)
        }
        for snapshot in snapshots + related.values.compactMap({ $0 as? DefaultSnapshot }) {
            guard let owner = schema.entity(named: snapshot.persistentIdentifier.entityName) else { continue }
            image.merge(snapshot, entity: owner)
            rows.append(CustomStoreImage.RowID(entity: owner.name, key: image.key(for: snapshot.persistentIdentifier)))
        }
        return rows
    }
}
