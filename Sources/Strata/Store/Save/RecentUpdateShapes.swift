/// A value made for each of the last two shapes of update a save wrote — an entity and the properties it changes —
/// such as the update's statement or the history's list of changed properties.
///
/// Consecutive updates of the same shape (the usual case) take the last value without a lookup, and updates
/// alternating between two shapes (most rows change one property, some a second one too) switch between the two.
struct RecentUpdateShapes<Value> {
    private typealias Entry = (entity: Schema.Entity, indexes: [Int], value: Value)

    private var last: Entry?
    private var previous: Entry?

    /// The value for updates of `entity` changing `columns`, made with `make` when neither of the last two shapes
    /// is this one.
    mutating func value(
        for entity: Schema.Entity, columns: ArraySlice<StoreChanges.UpdateColumn>, make: () -> Value
    ) -> Value {
        if let last, last.entity === entity, columns.writes(last.indexes) { return last.value }
        if let previous, previous.entity === entity, columns.writes(previous.indexes) {
            (self.previous, self.last) = (last, previous)
            return previous.value
        }
        let value = make()
        (previous, last) = (last, (entity, columns.map(\.index), value))
        return value
    }
}
