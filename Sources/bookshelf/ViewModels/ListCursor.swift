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

/// Rows recently inserted or changed, highlighted for a short while so a change made elsewhere catches the eye.
struct RowHighlights<ID: Hashable> {
    /// How long a row stays highlighted.
    var duration: Duration = .milliseconds(1500)
    private var until: [ID: ContinuousClock.Instant] = [:]

    /// Highlights `ids` from `now` on.
    mutating func mark(_ ids: Set<ID>, now: ContinuousClock.Instant = .now) {
        for id in ids { until[id] = now + duration }
        until = until.filter { $0.value > now }
    }

    /// Whether `id` is highlighted at `now`.
    func contains(_ id: ID, now: ContinuousClock.Instant = .now) -> Bool {
        until[id].map { $0 > now } ?? false
    }
}
