import Foundation
import Strata

/// Makes the live list every view model uses: `query` reads `Model`s of `container`.
///
/// Swap this file for a `ResultsObserver`-backed one when live results land on main: observe
/// `FetchDescriptor<Model>()` in `container` and re-run `query` from the observer's `onChange`. Polling needs
/// neither the model type nor the container.
@MainActor
func makeLiveList<Model: PersistentModel, Row: Record>(
    watching model: Model.Type, in container: ModelContainer, _ query: @escaping @MainActor () throws -> [Row]
) -> any LiveList<Row> {
    PollingLiveList(query: query)
}

/// A `LiveList` that re-runs its query every `interval` and compares identifiers and snapshot values with the
/// previous rows. Snapshots are plain values, so the comparison is the fingerprint.
@MainActor
final class PollingLiveList<Row: Record>: LiveList {
    private(set) var rows: [Row] = []
    private(set) var error: String?
    var onChange: (@MainActor (_ changed: Set<Row.ID>) -> Void)?
    var query: @MainActor () throws -> [Row] {
        didSet { refresh() }
    }
    private var hasFetched = false

    /// Starts polling `query` every `interval`.
    init(query: @escaping @MainActor () throws -> [Row], interval: Duration = .milliseconds(500)) {
        self.query = query
        refresh()
        Task { @MainActor [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                // Polling ends with the list.
                guard let list = self else { return }
                list.refresh()
            }
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
