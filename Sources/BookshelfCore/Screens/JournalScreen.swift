import Foundation

/// The journal: a search box, entries newest first, and the selected entry's text.
@MainActor
struct JournalScreen {
    let model: JournalViewModel
    let isSearching: Bool

    func lines(height: Int) -> [StyledLine] {
        let cursor = isSearching ? "_" : ""
        var lines = [
            StyledLine(" Journal", .bold),
            StyledLine(spans: [(" Search: ", .dim), (model.searchText + cursor, isSearching ? .selected : .plain)]),
            StyledLine(" /: search  a: add  Enter: edit  d: delete", .dim),
        ]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty {
            let empty = model.searchText.isEmpty ? "No entries yet" : "No entries match “\(model.searchText)”"
            return lines + [StyledLine(), StyledLine("   \(empty)", .dim)]
        }
        let detail =
            model.list.selected.map { $0.content.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        let listHeight = max(1, height - lines.count - min(detail.count, 5) - 1)
        lines += ListRows.lines(model.list, height: listHeight) { entry in
            " \(DayFormat.string(entry.date))  \(entry.title)"
        }
        lines.append(StyledLine())
        return lines + detail.prefix(5).map { StyledLine("   " + $0, .dim) }
    }
}
