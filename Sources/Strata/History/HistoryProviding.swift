/// A custom store that keeps the history of its changes (SwiftData's custom-store history, iOS 18): the store
/// answers history fetches and deletes with transactions of its own type.
///
/// Strata's SQLite and PostgreSQL stores keep their history themselves. A custom store that conforms answers
/// `ModelContext.fetchHistory` and `deleteHistory` with descriptors of its `HistoryType`, judging their
/// predicate, order and limit itself; a descriptor of another transaction type fails naming the store's.
public protocol HistoryProviding<HistoryType> {
    /// The store's transaction type.
    associatedtype HistoryType: HistoryTransaction

    /// The transactions a descriptor selects, in its order.
    /// - Throws: `SwiftDataError.historyTokenExpired` for a token older than deleted history; the store's errors.
    func fetchHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws -> [HistoryType]
    /// Deletes the transactions a descriptor selects.
    /// - Throws: the store's errors.
    func deleteHistory(_ descriptor: HistoryDescriptor<HistoryType>) throws
    /// The store's transaction type.
    static var historyType: HistoryType.Type { get }
}

extension HistoryProviding {
    /// The store's transaction type.
    public static var historyType: HistoryType.Type { HistoryType.self }
}
