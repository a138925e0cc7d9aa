import Foundation

/// Rows that follow the store: the one seam between view models and "how do we learn that the store changed".
///
/// The conformer is `ObservedLiveList`, driven by Strata's `ResultsObserver`; `makeLiveList(watching:in:_:)` picks
/// it. (Before live results landed, a polling conformer stood in its file; no view model changed with the swap.)
@MainActor
protocol LiveList<Row>: AnyObject {
    associatedtype Row: Record

    /// The rows of the last successful fetch.
    var rows: [Row] { get }
    /// The last fetch error, cleared by the next successful fetch.
    var error: String? { get }
    /// Called after a fetch whose rows differ from the previous ones, with the rows that were inserted or changed
    /// (empty for the first fetch).
    var onChange: (@MainActor (_ changed: Set<Row.ID>) -> Void)? { get set }
    /// What the list shows; setting it re-runs the query at once (a run-time predicate, a search text…).
    var query: @MainActor () throws -> [Row] { get set }

    /// Re-runs the query now, after this process changed the store.
    func refresh()
}
