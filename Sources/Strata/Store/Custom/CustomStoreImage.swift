import Foundation

/// A custom store's models as the container holds them in memory between the store's fetches: rows by a key of
/// the container's own (contexts and queries work on integer row keys; a custom store names its models with
/// identifiers of its own), foreign keys and join rows as Strata's stores keep them, so a fetch's condition,
/// order and relationships run over it exactly as over a table.
struct CustomStoreImage {
    /// One model: its stored values by property index (a to-one's target key, or `.null`, at its index).
    struct Row {
        var values: [StoredValue]
    }

    /// One row of a join table: the key in each of its two columns.
    struct JoinRow: Hashable {
        var columns: [String: Int64]
    }

    /// The rows of each entity, by entity name and key.
    var rows: [String: [Int64: Row]] = [:]
    /// The rows of each join table.
    var joins: [String: Set<JoinRow>] = [:]
    /// The entities whose rows were all read from the store at least once.
    var loaded: Set<String> = []
    /// The key given to each of the store's identifiers.
    private(set) var keys: [PersistentIdentifier: Int64] = [:]
    /// The store's identifier of each key, by entity name.
    private(set) var identifiers: [String: [Int64: PersistentIdentifier]] = [:]
    private var nextKey: Int64 = 1

    /// The key of a store identifier, given on first sight.
    mutating func key(for identifier: PersistentIdentifier) -> Int64 {
        if let key = keys[identifier] { return key }
        let key = newKey()
        bind(key, to: identifier)
        return key
    }

    /// A key no identifier has yet (an inserted model's, until the store names it).
    mutating func newKey() -> Int64 {
        defer { nextKey += 1 }
        return nextKey
    }

    /// Names `key` with the store's identifier.
    mutating func bind(_ key: Int64, to identifier: PersistentIdentifier) {
        keys[identifier] = key
        identifiers[identifier.entityName, default: [:]][key] = identifier
    }

    func identifier(of key: Int64, in entity: String) -> PersistentIdentifier? {
        identifiers[entity]?[key]
    }

    /// Takes in a snapshot read from the store: its attributes, to-one targets and join-table rows replace what
    /// the row held.
    mutating func merge(_ snapshot: DefaultSnapshot, entity: Schema.Entity) {
        let key = key(for: snapshot.persistentIdentifier)
        var values = [StoredValue](repeating: .null, count: entity.persistentProperties.count)
        for property in entity.persistentProperties {
            let value = snapshot.values[property.name]
            guard let info = entity.relationshipInfos[property.index] else {
                if case .attribute(let stored)? = value { values[property.index] = stored }
                continue
            }
            switch info.storage {
            case .foreignKey:
                if case .toOne(let target?)? = value { values[property.index] = .integer(self.key(for: target)) }
            case .inverseForeignKey:
                continue
            case .joinTable(let table, let ownerColumn, let targetColumn):
                var tableRows = joins[table] ?? []
                tableRows = tableRows.filter { $0.columns[ownerColumn] != key }
                if case .toMany(let targets)? = value {
                    for target in targets {
                        tableRows.insert(JoinRow(columns: [ownerColumn: key, targetColumn: self.key(for: target)]))
                    }
                }
                joins[table] = tableRows
            }
        }
        rows[entity.name, default: [:]][key] = Row(values: values)
    }

    /// Removes a row and every reference to it: foreign keys pointing at it become `.null`, its join rows go.
    /// - Returns: the rows whose stored references changed, by entity name and key.
    @discardableResult
    mutating func remove(_ key: Int64, of entity: Schema.Entity, schema: Schema) -> [(String, Int64)] {
        rows[entity.name]?[key] = nil
        var touched: [(String, Int64)] = []
        for other in schema.entities {
            for (index, info) in other.relationshipInfos where info.destination.name == entity.name {
                switch info.storage {
                case .foreignKey:
                    for (rowKey, row) in rows[other.name] ?? [:] where row.values[index] == .integer(key) {
                        rows[other.name]?[rowKey]?.values[index] = .null
                        touched.append((other.name, rowKey))
                    }
                case .inverseForeignKey:
                    continue
                case .joinTable(let table, let ownerColumn, let targetColumn):
                    let removed = (joins[table] ?? []).filter { $0.columns[targetColumn] == key }
                    joins[table]?.subtract(removed)
                    touched += removed.compactMap { $0.columns[ownerColumn].map { (other.name, $0) } }
                }
            }
        }
        for (_, info) in entity.relationshipInfos {
            guard case .joinTable(let table, let ownerColumn, _) = info.storage else { continue }
            joins[table] = joins[table]?.filter { $0.columns[ownerColumn] != key }
        }
        return touched
    }

    /// The keys of the rows a relationship of row `key` reaches, in key order.
    func related(_ key: Int64, of entity: Schema.Entity, through info: Schema.RelationshipInfo) -> [Int64] {
        switch info.storage {
        case .foreignKey:
            guard case .integer(let target)? = rows[entity.name]?[key]?.values[info.index] else { return [] }
            return rows[info.destination.name]?[target] == nil ? [] : [target]
        case .inverseForeignKey:
            guard let inverse = info.inverse else { return [] }
            return (rows[info.destination.name] ?? [:]).filter { $0.value.values[inverse.index] == .integer(key) }.keys
                .sorted()
        case .joinTable(let table, let ownerColumn, let targetColumn):
            return (joins[table] ?? []).filter { $0.columns[ownerColumn] == key }.compactMap {
                $0.columns[targetColumn]
            }.sorted()
        }
    }

    /// The snapshot of row `key`, naming models with the store's identifiers (or `temporary` ones for models
    /// the store hasn't named yet).
    func snapshot(of key: Int64, in entity: Schema.Entity, temporary: [Int64: PersistentIdentifier]) -> DefaultSnapshot?
    {
        func name(_ target: Int64, _ destination: Schema.Entity) -> PersistentIdentifier? {
            identifier(of: target, in: destination.name) ?? temporary[target]
        }
        guard let row = rows[entity.name]?[key], let identifier = name(key, entity) else { return nil }
        var values: [String: DefaultSnapshot.PropertyValue] = [:]
        for property in entity.persistentProperties {
            guard let info = entity.relationshipInfos[property.index] else {
                values[property.name] = .attribute(row.values[property.index])
                continue
            }
            let targets = related(key, of: entity, through: info).compactMap { name($0, info.destination) }
            values[property.name] = info.isToMany ? .toMany(targets) : .toOne(targets.first)
        }
        return DefaultSnapshot(persistentIdentifier: identifier, values: values)
    }
}

extension CustomStoreImage {
    /// A row of the image: its entity's name and key.
    struct RowID: Hashable {
        var entity: String
        var key: Int64
    }

    /// An evaluator over one row of the image that follows relationships through the image.
    func evaluator(of key: Int64, in entity: Schema.Entity) -> QueryEvaluator {
        let values = rows[entity.name]?[key]?.values ?? []
        return QueryEvaluator(entity: entity, primaryKey: key, values: { $0 < values.count ? values[$0] : .null }) {
            hop in
            related(key, of: hop.owner, through: hop.relationship).map {
                evaluator(of: $0, in: hop.relationship.destination)
            }
        }
    }
}
