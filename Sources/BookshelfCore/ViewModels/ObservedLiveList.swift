import Foundation
import Strata

/// Makes the live list every view model uses: `query` reads `Model`s, and `context` is the context whose
/// registered `Model`s must follow the store too (the main context behind a `ModelState`), or a new one.
@MainActor
func makeLiveList<Model: PersistentModel, Row: Record>(
    watching model: Model.Type, in context: ModelContext, _ query: @escaping @MainActor () throws -> [Row]
) -> any LiveList<Row> {
    ObservedLiveList(watching: model, in: context, query: query)
}

/// A `LiveList` driven by Strata's `ResultsObserver`: the observer watches every `Model` in the store (saves in
/// this process at once, commits by other processes within milliseconds) and each change it publishes re-runs
/// the list's query. The new rows are compared with the previous ones by identifier and snapshot value, which
/// tells the rows to highlight.
///
/// The observer also reloads the `Model`s registered in its context before it fetches, so models a
/// `ModelState` holds in the main context show what other processes saved.
@MainActor
final class ObservedLiveList<Model: PersistentModel, Row: Record>: LiveList {
    private(set) var rows: [Row] = []
    private(set) var error: String?
    var onChange: (@MainActor (_ changed: Set<Row.ID>) -> Void)?
    var query: @MainActor () throws -> [Row] {
        didSet { refresh() }
    }
    private var hasFetched = false
    private var observer: ResultsObserver<Model, Never>?

    /// Runs `query` now and again whenever a saved change touches a `Model`.
    init(watching model: Model.Type, in context: ModelContext, query: @escaping @MainActor () throws -> [Row]) {
        self.query = query
        refresh()
        do {
            let observer = try ResultsObserver(fetchDescriptor: FetchDescriptor<Model>(), modelContext: context)
            observer.onChange = { [weak self] _ in self?.refresh() }
            self.observer = observer
        } catch {
            // The list still shows what `query` read; it just won't follow later saves.
            self.error = "\(error)"
        }
    }

    func refresh() {
        let fetched: [Row]
        do {
            fetched = try query()
            error = nil
        } catch {
            self.error = "\(error)"
            return
        }
        guard !hasFetched || fetched != rows else { return }
        let previous = Dictionary(rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = hasFetched ? Set(fetched.filter { previous[$0.id] != $0 }.map(\.id)) : []
        rows = fetched
        hasFetched = true
        onChange?(changed)
    }
}
