/// A context's registered models with unsaved changes, in the order they were first changed, each kept with its
/// row's primary key.
///
/// The key is read when a model is added, while the model was just changed and is in the CPU's caches, and the
/// models are kept in an array in that order: a save puts them in key order (``inKeyOrder()``) from the array alone,
/// where taking them from a hash table would first visit every changed model in the table's order (at 100,000
/// models, a cache miss or two per model). Changes made in key order, as across a fetched list, are sorted already.
/// A registered model's key never changes, so the kept key stays right.
struct ChangedModels {
    /// A changed model and its row's key (`Int64.max` for a model without one, which sorts it last).
    private struct Entry {
        let primaryKey: Int64
        let model: any PersistentModel
    }

    /// The models in the order they were first changed; `nil` where one was removed since.
    private var entries: [Entry?] = []
    /// Each model's position in `entries`, by identity.
    private var positions: [ObjectIdentifier: Int] = [:]
    /// How many positions of `entries` are `nil`.
    private var removed = 0

    /// The changed model of identity `identity`; assigning a model adds it (its key read now) unless it is here
    /// already, assigning `nil` removes it.
    subscript(identity: ObjectIdentifier) -> (any PersistentModel)? {
        get { positions[identity].flatMap { entries[$0]?.model } }
        set {
            guard let newValue else {
                guard let position = positions.removeValue(forKey: identity) else { return }
                entries[position] = nil
                removed += 1
                // Models changed and changed back again and again leave no trail of removed positions.
                if removed > 16, removed > entries.count / 2 { compact() }
                return
            }
            // The table holds the model, so a model of the same identity is the same model: a model here already
            // stays where it is. One lookup finds the model or makes its slot.
            let next = entries.count
            guard Self.claim(&positions[identity, default: -1], for: next) else { return }
            entries.append(Entry(primaryKey: newValue.persistentBackingData.primaryKey ?? .max, model: newValue))
        }
    }

    /// Sets a slot made for a model just now (`-1`) to `position`; whether it did.
    private static func claim(_ slot: inout Int, for position: Int) -> Bool {
        guard slot < 0 else { return false }
        slot = position
        return true
    }

    /// Whether no model is changed.
    var isEmpty: Bool { positions.isEmpty }

    /// How many models are changed.
    var count: Int { positions.count }

    /// The changed models' identities.
    var identities: Dictionary<ObjectIdentifier, Int>.Keys { positions.keys }

    /// The changed models, in the order they were first changed.
    var values: some Sequence<any PersistentModel> {
        entries.lazy.compactMap { $0?.model }
    }

    /// Forgets every changed model.
    mutating func removeAll() {
        entries.removeAll()
        positions.removeAll()
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

    /// The changed models in the order of their rows' keys, models with equal keys (rows of different entities) in
    /// the order they were first changed. Only the keys and positions are sorted, and the models are read once, in
    /// the sorted order.
    func inKeyOrder() -> [any PersistentModel] {
        var keyed: [(key: Int64, position: Int)] = []
        keyed.reserveCapacity(positions.count)
        entries.withUnsafeBufferPointer { entries in
            for position in entries.indices {
                if let key = entries[position]?.primaryKey { keyed.append((key, position)) }
            }
        }
        // A stable sort, which finds runs already in order: changes made in key order cost a pass.
        keyed.sort { $0.key < $1.key }
        return keyed.compactMap { entries[$0.position]?.model }
    }
}
