import Foundation

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
