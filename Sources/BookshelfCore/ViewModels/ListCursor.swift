import Foundation

/// The selected row of a list, kept inside the list's bounds as it grows and shrinks.
struct ListCursor: Equatable {
    /// The selected index; 0 for an empty list.
    private(set) var index = 0

    /// Moves by `offset` rows within a list of `count` rows.
    mutating func move(by offset: Int, count: Int) {
        index = max(0, min(index + offset, count - 1))
    }

    /// Keeps the selection valid after the list changed to `count` rows.
    mutating func clamp(count: Int) {
        index = max(0, min(index, count - 1))
    }

    /// Selects `newIndex` (clamped to `count` rows).
    mutating func select(_ newIndex: Int, count: Int) {
        index = newIndex
        clamp(count: count)
    }
}
