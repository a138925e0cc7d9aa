/// Workload 18c and 18d's setup, shared by both implementations: the totals per category (count, sum of `count`,
/// largest `weight`) of the whole table or of a slice of `score`, and the rows the timed changes touch.
struct LiveAggregateQuery {
    /// Rows in the store.
    var rows: Int
    /// Changes timed per run.
    var changes: Int
    /// The totals are over the rows whose `score` is below this (the indexed attribute), or over every row.
    var scoreBelow: Double?

    /// 18d's slice: a hundredth of the rows, as a screen totalling this month's rows reads an indexed range.
    static let sliceBound = 0.01

    init(options: Options, slice: Bool) {
        rows = options.rows
        changes = options.quick ? 20 : 30
        scoreBelow = slice ? Self.sliceBound : nil
    }

    /// The position, among the `candidates` rows the totals read (in `id` order), of the row change `number`
    /// touches.
    func target(_ number: Int, among candidates: Int) -> Int {
        (number &* 7_919 &+ 13) % max(candidates, 1)
    }
}
