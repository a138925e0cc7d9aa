/// The models a to-many relationship that was not read yet gained and lost through its inverse (`book.author =
/// author`) since the last save, in order. Applied to the models the store holds when the relationship is first
/// read, they give what reading it at the time of each change and keeping it in step would have given, so an
/// assignment of the to-one side doesn't load the to-many of the old and the new target.
struct PendingToManyChanges {
    /// One gain or loss of a model, in the order they happened.
    private struct Change {
        let model: any PersistentModel
        let isAddition: Bool
    }

    private var changes: [Change] = []

    /// Notes that the relationship gained `model`.
    mutating func add(_ model: any PersistentModel) {
        changes.append(Change(model: model, isAddition: true))
    }

    /// Notes that the relationship lost `model`.
    mutating func remove(_ model: any PersistentModel) {
        changes.append(Change(model: model, isAddition: false))
    }

    /// `stored` (the related models as the store holds them) with the changes applied: each model's last change
    /// decides whether it is there. A model lost is left out; a model gained and not stored is appended, in the
    /// order of its last gain, as keeping the loaded relationship in step appends it.
    func applied(to stored: [any PersistentModel]) -> [any PersistentModel] {
        guard !changes.isEmpty else { return stored }
        var last: [ObjectIdentifier: Int] = [:]
        for (position, change) in changes.enumerated() { last[ObjectIdentifier(change.model)] = position }
        var result: [any PersistentModel] = []
        result.reserveCapacity(stored.count + changes.count)
        var present = Set<ObjectIdentifier>(minimumCapacity: stored.count)
        for model in stored {
            let identity = ObjectIdentifier(model)
            if let position = last[identity], !changes[position].isAddition { continue }
            if present.insert(identity).inserted { result.append(model) }
        }
        for (position, change) in changes.enumerated()
        where change.isAddition && last[ObjectIdentifier(change.model)] == position {
            if present.insert(ObjectIdentifier(change.model)).inserted { result.append(change.model) }
        }
        return result
    }
}
