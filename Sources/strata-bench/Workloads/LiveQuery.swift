/// Workload 8's setup, shared by both implementations: `observers` slices of `score` (the indexed attribute),
/// each showing the active items in its slice sorted by score, and the rows the timed changes touch.
struct LiveQuery {
    /// How many observers (raw: how many queries) there are.
    var observers: Int
    /// Rows in the store.
    var rows: Int
    /// Changes timed per run.
    var changes: Int

    init(options: Options) {
        observers = options.quick ? 10 : 100
        rows = options.rows
        changes = options.quick ? 20 : 30
    }

    /// The half-open `score` range observer `index` shows (the slices cover 0..<1 without gaps or overlap).
    func slice(_ index: Int) -> (low: Double, high: Double) {
        (Double(index) / Double(observers), Double(index + 1) / Double(observers))
    }

    /// The observer whose slice holds `score`.
    func observer(showing score: Double) -> Int {
        (0..<observers).first { index in
            let bounds = slice(index)
            return score >= bounds.low && score < bounds.high
        } ?? observers - 1
    }

    /// The `id` of the row change `number` touches: an active row (shown by exactly one observer) when
    /// `affecting`, otherwise an inactive one (`isActive == false`: shown by none).
    func target(_ number: Int, affecting: Bool) -> Int {
        let spread = (number &* 7_919 &+ 13) % rows
        if affecting { return spread % 3 == 0 ? max(spread - 1, 1) : spread }
        return spread - spread % 3
    }

    /// Nearest-rank percentile (`fraction` in 0...1) of `values`.
    static func percentile(_ fraction: Double, of values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
