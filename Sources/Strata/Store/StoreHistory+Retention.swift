import Foundation

/// What persistent history a store keeps: `ModelConfiguration.historyRetentionInterval` and
/// `historyRetentionLimit` (and `PostgresConfiguration`'s), enforced by both stores when they open and every 64th
/// save, in the save's transaction.
package struct HistoryRetention: Sendable {
    /// Transactions older than this many seconds are deleted.
    package var maximumAge: TimeInterval?
    /// Only this many of the newest transactions are kept.
    package var maximumCount: Int?

    package init(maximumAge: TimeInterval? = nil, maximumCount: Int? = nil) {
        self.maximumAge = maximumAge
        self.maximumCount = maximumCount
    }

    /// Whether any history is deleted automatically.
    package var isLimited: Bool { maximumAge != nil || maximumCount != nil }

    /// Whether a save that recorded `transaction` enforces the retention (every 64th).
    package func isDue(after transaction: Int64) -> Bool { isLimited && transaction % 64 == 0 }

    /// Deletes, with `delete` (a store's `deleteHistory` inside the caller's transaction), the transactions older
    /// than ``maximumAge`` and those older than the ``maximumCount`` newest, whose newest identifier
    /// `newestBeyondLimit` reads with the given query (`nil` when there are no more than that many).
    package func prune(
        newestBeyondLimit: (SQLFragment) throws -> Int64?, delete: (StoreHistoryFetch) throws -> Void
    ) throws {
        if let maximumAge {
            try delete(StoreHistoryFetch(conditions: [.timestamp(.less, Date().addingTimeInterval(-maximumAge))]))
        }
        if let maximumCount {
            let newestBeyond: SQLFragment =
                "SELECT \(identifier: "id") FROM \(identifier: HistoryTables.transactions) "
                + "ORDER BY \(identifier: "id") DESC LIMIT 1 OFFSET \(bind: .integer(Int64(max(0, maximumCount))))"
            if let newest = try newestBeyondLimit(newestBeyond) {
                try delete(StoreHistoryFetch(conditions: [.transaction(.lessOrEqual, newest)]))
            }
        }
    }
}
