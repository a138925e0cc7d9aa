import Foundation

/// Draws rows of a live list: the selected row reversed, rows changed recently highlighted, scrolled so the
/// selection stays visible.
@MainActor
enum ListRows {
    /// Up to `height` lines for `list`, each drawn by `line`.
    static func lines<Row: Record>(_ list: LiveRows<Row>, height: Int, _ line: (Row) -> String) -> [StyledLine] {
        guard height > 0 else { return [] }
        let selected = list.cursor.index
        let first = selected >= height ? selected - height + 1 : 0
        return list.rows.enumerated().dropFirst(first).prefix(height).map { index, row in
            let style: TextStyle = index == selected ? .selected : (list.isHighlighted(row) ? .highlighted : .plain)
            return StyledLine(line(row), style)
        }
    }

    /// The store error line, when the last fetch failed.
    static func errorLines<Row: Record>(_ list: LiveRows<Row>) -> [StyledLine] {
        list.error.map { [StyledLine("Can't read the store: \($0)", .error)] } ?? []
    }
}
