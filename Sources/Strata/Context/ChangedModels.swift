/// A context's registered models with unsaved changes, in the order they were first changed, each kept with its
/// entity and its row's primary key.
///
/// The entity and key are read when a model is added, while the model was just changed and is in the CPU's caches,
/// and the models are kept in an array in that order: a save puts them in row order (``inRowOrder()``: by entity
/// name, then key, the order the store writes rows in) from the array alone, where taking them from a hash table
/// would first visit every changed model in the table's order (at 100,000 models, a cache miss or two per model).
/// Changes made in key order, as across a fetched list, are sorted already. A registered model's entity and key
/// never change, so what is kept stays right.
struct ChangedModels {
    /// A changed model, its entity and its row's key (`Int64.max` for a model without one, which sorts it last).
    private struct Entry {
        let entity: Schema.Entity?
        let primaryKey: Int64
        let model: any PersistentModel
    }

    /// The models in the order they were first changed; `nil` where one was removed since.
    private var entries: [Entry?] = []
    /// Each model's position in `entries`, by identity.
    private var positions = IdentityKeyedTable<Int>()
    /// How many models are here: the positions held in `positions`.
    private(set) var count = 0
    /// How many positions of `entries` are `nil`.
    private var removed = 0

    /// The changed model of identity `identity`; assigning a model adds it (its key read now) unless it is here
    /// already, assigning `nil` removes it.
    subscript(identity: ObjectIdentifier) -> (any PersistentModel)? {
        get { positions[identity].flatMap { entries[$0]?.model } }
        set {
            guard let newValue else {
                guard let position = positions.removeValue(forKey: identity) else { return }
                count -= 1
                entries[position] = nil
                removed += 1
                // Models changed and changed back again and again leave no trail of removed positions.
                if removed > 16, removed > entries.count / 2 { compact() }
                return
            }
            // The table holds the model, so a model of the same identity is the same model: a model here already
            // stays where it is. One lookup finds the model or makes its slot.
            guard Self.claim(&positions[identity, default: -1], for: entries.count) else { return }
            count += 1
            let data = newValue.persistentBackingData
            entries.append(Entry(entity: data.entity, primaryKey: data.primaryKey ?? .max, model: newValue))
        }
    }

    /// Sets a slot made for a model just now (`-1`) to `position`; whether it did.
    private static func claim(_ slot: inout Int, for position: Int) -> Bool {
        guard slot < 0 else { return false }
        slot = position
        return true
    }

    /// Whether no model is changed.
    var isEmpty: Bool { count == 0 }

    /// The changed models' identities, in no particular order.
    var identities: [ObjectIdentifier] { positions.keysWithValues }

    /// The changed models, in the order they were first changed.
    var values: some Sequence<any PersistentModel> {
        entries.lazy.compactMap { $0?.model }
    }

    /// Forgets every changed model.
    mutating func removeAll() {
        entries.removeAll()
        positions.removeAll()
        count = 0
        removed = 0
    }

    /// Drops the removed positions, keeping the order.
    private mutating func compact() {
        entries = entries.filter { $0 != nil }
        for (position, entry) in entries.enumerated() {
            if let entry { positions[ObjectIdentifier(entry.model)] = position }
        }
        removed = 0
    }

    /// The changed models in row order: by entity name (a model without an entity last), then key, then the order
    /// they were first changed. Only ranks, keys and positions are sorted, and the models are read once, in the
    /// sorted order.
    func inRowOrder() -> [any PersistentModel] {
        // One changed model, an editor's every save: nothing to sort.
        if count == 1, let model = entries.lazy.compactMap({ $0?.model }).first { return [model] }
        var keyed: [(rank: Int, key: Int64, position: Int)] = []
        keyed.reserveCapacity(count)
        entries.withUnsafeBufferPointer { entries in
            // Each entity ranked where a run of its models starts; the ranks put in name order after.
            var entities: [Schema.Entity] = []
            var last: (entity: ObjectIdentifier?, rank: Int) = (nil, Int.max)
            for position in entries.indices {
                guard let key = entries[position]?.primaryKey else { continue }
                let entity = entries[position]?.entity.map(ObjectIdentifier.init)
                if entity != last.entity {
                    let rank = entities.firstIndex { ObjectIdentifier($0) == entity }
                    if let rank {
                        last = (entity, rank)
                    } else if let found = entries[position]?.entity {
                        last = (entity, entities.count)
                        entities.append(found)
                    } else {
                        last = (nil, Int.max)
                    }
                }
                keyed.append((last.rank, key, position))
            }
            guard entities.count > 1 else { return }
            let byName = entities.indices.sorted { entities[$0].name < entities[$1].name }
            var rankByName = Array(repeating: 0, count: entities.count)
            for (rank, index) in byName.enumerated() { rankByName[index] = rank }
            for index in keyed.indices where keyed[index].rank != Int.max {
                keyed[index].rank = rankByName[keyed[index].rank]
            }
        }
        // A stable sort, which finds runs already in order: changes made in row order cost a pass.
        keyed.sort { ($0.rank, $0.key) < ($1.rank, $1.key) }
        return keyed.compactMap { entries[$0.position]?.model }
    }
}
