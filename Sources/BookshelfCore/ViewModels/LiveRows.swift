import Foundation
import Observation
import Strata

/// A live list with a selection and highlights: the part every list screen's view model shares.
@MainActor
@Observable
final class LiveRows<Row: Record> {
    @ObservationIgnored private let live: any LiveList<Row>
    /// The rows shown, in order.
    private(set) var rows: [Row] = []
    /// The selected row.
    private(set) var cursor = ListCursor()
    /// Rows changed recently.
    private(set) var highlights = RowHighlights<Row.ID>()

    /// Follows `query`, which reads `Model`s, through the app's `LiveList`; `context` is the context whose
    /// registered models must follow the store too (see `makeLiveList(watching:in:_:)`).
    init<Model: PersistentModel>(
        watching model: Model.Type, in context: ModelContext,
        _ query: @escaping @MainActor () throws -> [Row]
    ) {
        live = makeLiveList(watching: model, in: context, query)
        rows = live.rows
        live.onChange = { [weak self] changed in
            guard let self else { return }
            // Keep the same row selected when rows appear or vanish around it.
            let selectedID = self.selected?.id
            self.rows = self.live.rows
            if let selectedID, let index = self.rows.firstIndex(where: { $0.id == selectedID }) {
                self.cursor.select(index, count: self.rows.count)
            } else {
                self.cursor.clamp(count: self.rows.count)
            }
            self.highlights.mark(changed)
        }
    }

    /// The last fetch error, if the store could not be read.
    var error: String? { live.error }

    /// The selected row, if the list isn't empty.
    var selected: Row? { rows.indices.contains(cursor.index) ? rows[cursor.index] : nil }

    /// Moves the selection by `offset` rows.
    func move(by offset: Int) { cursor.move(by: offset, count: rows.count) }

    /// Replaces the query (a new run-time predicate or search) and fetches at once.
    func requery(_ query: @escaping @MainActor () throws -> [Row]) {
        live.query = query
        rows = live.rows
        cursor.clamp(count: rows.count)
    }

    /// Fetches now, after this process wrote to the store; selects the row with `id` when given.
    func refresh(selecting id: Row.ID? = nil) {
        live.refresh()
        rows = live.rows
        if let id, let index = rows.firstIndex(where: { $0.id == id }) {
            cursor.select(index, count: rows.count)
        } else {
            cursor.clamp(count: rows.count)
        }
    }

    /// Whether `row` is highlighted now.
    func isHighlighted(_ row: Row) -> Bool { highlights.contains(row.id) }
}
