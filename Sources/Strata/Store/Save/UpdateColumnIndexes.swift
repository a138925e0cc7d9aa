extension ArraySlice<StoreChanges.UpdateColumn> {
    /// Whether these columns write the properties at `indexes`, in that order: an update of the same shape.
    ///
    /// Compared in place by index; iterating the slice would copy each column's values.
    func writes(_ indexes: [Int]) -> Bool {
        guard count == indexes.count else { return false }
        var position = startIndex
        for index in indexes {
            guard self[position].index == index else { return false }
            position += 1
        }
        return true
    }
}
