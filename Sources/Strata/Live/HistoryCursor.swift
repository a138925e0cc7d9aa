/// A reader's position in a store's history: which transactions it has handled.
///
/// On SQLite transactions commit in identifier order, so "everything up to the newest read" is a position. On
/// PostgreSQL a save takes its identifier from a sequence when it starts and commits later, so transaction 11 may
/// become visible before 10: the cursor keeps the identifiers it handled past the first one it hasn't seen (a
/// gap), reads from the gap onward, and leaves out what it handled. A gap is either a save still running or one
/// rolled back (its identifier never used); after ``gapLifetime`` it is taken to be the second, so the cursor
/// moves on — a save running longer than that, committed afterwards, is not reported.
struct HistoryCursor {
    /// How long a gap is waited for.
    static let gapLifetime: Duration = .seconds(60)

    /// Every transaction up to this one was handled (or is gone); `nil` before the history had any.
    private(set) var handledThrough: Int64?
    /// Transactions handled past `handledThrough` (past a gap).
    private var handledAhead: Set<Int64> = []
    /// When the current gap was first seen.
    private var gapSince: ContinuousClock.Instant?

    init(handledThrough: Int64?) {
        self.handledThrough = handledThrough
    }

    /// Whether every transaction up to `newest` was handled.
    func hasHandled(through newest: Int64) -> Bool {
        guard let handledThrough else { return false }
        if newest <= handledThrough { return true }
        guard newest - handledThrough <= Int64(handledAhead.count) else { return false }
        return (handledThrough + 1...newest).allSatisfy(handledAhead.contains)
    }

    /// Whether `identifier` was handled.
    func hasHandled(_ identifier: Int64) -> Bool {
        identifier <= (handledThrough ?? .min) || handledAhead.contains(identifier)
    }

    /// The history request for the transactions that may be new (identifiers only).
    var request: StoreHistoryFetch {
        var request = StoreHistoryFetch(conditions: handledThrough.map { [.transaction(.greater, $0)] } ?? [])
        request.includesChanges = false
        return request
    }

    /// Records transactions as handled, and moves past a gap that outlived ``gapLifetime``.
    mutating func markHandled<Identifiers: Sequence<Int64>>(
        _ identifiers: Identifiers, now: ContinuousClock.Instant = .now
    ) {
        handledAhead.formUnion(identifiers)
        // A history empty at the start: Strata's stores number transactions from 1, and one numbered below the
        // first read may still be running (it took its number first and commits later), so the position starts
        // before 1, where a lower number than any read is a gap to wait for, not a transaction to pass over.
        if handledThrough == nil, let lowest = handledAhead.min() { handledThrough = Swift.min(lowest - 1, 0) }
        advance()
        guard !handledAhead.isEmpty else {
            gapSince = nil
            return
        }
        if let gapSince, now - gapSince > Self.gapLifetime {
            handledThrough = handledAhead.min().map { $0 - 1 }
            advance()
            self.gapSince = handledAhead.isEmpty ? nil : now
        } else if gapSince == nil {
            gapSince = now
        }
    }

    /// Starts over after `identifier` (history was deleted past the position).
    mutating func restart(after identifier: Int64?) {
        handledThrough = identifier
        handledAhead.removeAll()
        gapSince = nil
    }

    private mutating func advance() {
        guard var through = handledThrough else { return }
        while handledAhead.remove(through + 1) != nil { through += 1 }
        handledThrough = through
    }
}
