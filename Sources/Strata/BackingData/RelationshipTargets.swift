/// The related models of each relationship of one model that was read or assigned, by property index.
///
/// Made for the common case of a to-one read across a list (each book's author): a single related model is kept
/// as it is, not in an array, and the first relationship stored lives in the value itself, a dictionary being made
/// only for a second. A `Dictionary` of arrays would cost each such model two allocations, a hash and a resize —
/// the most a to-one read costs after the model itself.
package struct RelationshipTargets: Sequence {
    /// The related models of one relationship.
    private enum Stored {
        /// Exactly one model: a to-one relationship that holds one.
        case one(any PersistentModel)
        /// Any number of models, in order.
        case list([any PersistentModel])

        var models: [any PersistentModel] {
            switch self {
            case .one(let model): [model]
            case .list(let models): models
            }
        }

        var first: (any PersistentModel)? {
            switch self {
            case .one(let model): model
            case .list(let models): models.first
            }
        }
    }

    /// The index of the first relationship stored (see `firstStored`); meaningless while that is `nil`.
    ///
    /// Kept apart from its models so that finding a relationship compares an integer and copies nothing: an
    /// optional tuple of both was copied, its model retained and released, by every test of its index.
    private var firstIndex = 0
    /// The models of the first relationship stored, when it is the only one or the first of several.
    private var firstStored: Stored?
    /// The others; `nil` until there is a second (a value of `nil`s costs nothing to make, copy or destroy, which
    /// every model's header does).
    private var others: [Int: Stored]?

    /// No relationship stored.
    package init() {}

    /// Whether no relationship is stored.
    package var isEmpty: Bool { firstStored == nil }

    /// Whether the first relationship stored is relationship `index`.
    private func isFirst(_ index: Int) -> Bool { firstStored != nil && firstIndex == index }

    private func stored(at index: Int) -> Stored? {
        if isFirst(index) { return firstStored }
        return others?[index]
    }

    private mutating func store(_ stored: consuming Stored?, at index: Int) {
        if firstStored == nil || firstIndex == index {
            guard let stored else {
                // The first goes: one of the others (if any) takes its place.
                if let (nextIndex, next) = others?.popFirst() {
                    firstIndex = nextIndex
                    firstStored = next
                } else {
                    firstStored = nil
                }
                if others?.isEmpty == true { others = nil }
                return
            }
            firstIndex = index
            firstStored = stored
        } else if let stored {
            if others == nil { others = [index: stored] } else { others?[index] = stored }
        } else {
            others?[index] = nil
            if others?.isEmpty == true { others = nil }
        }
    }

    /// The related models of relationship `index`, `nil` when not stored; assigning `nil` forgets them.
    package subscript(index: Int) -> [any PersistentModel]? {
        get { stored(at: index)?.models }
        set { store(newValue.map(Stored.list), at: index) }
    }

    /// Whether relationship `index` is stored (read or assigned), which asks for no array.
    package func contains(_ index: Int) -> Bool {
        isFirst(index) || others?[index] != nil
    }

    /// Whether relationship `index` is stored, and its first related model: what a to-one read needs, without
    /// making an array.
    package func firstTarget(at index: Int) -> (isStored: Bool, model: (any PersistentModel)?) {
        if firstIndex == index {
            // Matched in place: only the model returned is copied.
            switch firstStored {
            case .one(let model): return (true, model)
            case .list(let models): return (true, models.first)
            case nil: break
            }
        }
        guard let stored = others?[index] else { return (false, nil) }
        return (true, stored.first)
    }

    /// Stores `model` as the one related model of relationship `index`.
    package mutating func setTarget(_ model: any PersistentModel, at index: Int) {
        store(.one(model), at: index)
    }

    /// Forgets every relationship.
    package mutating func removeAll() {
        firstStored = nil
        others = nil
    }

    /// The stored relationships as `(key: index, value: models)`, the first stored first.
    package func makeIterator() -> AnyIterator<(key: Int, value: [any PersistentModel])> {
        var pending = firstStored.map { [(key: firstIndex, value: $0.models)] } ?? []
        var rest = (others ?? [:]).makeIterator()
        return AnyIterator {
            if !pending.isEmpty { return pending.removeFirst() }
            return rest.next().map { (key: $0.key, value: $0.value.models) }
        }
    }
}
