import Foundation

/// Draws the whole frame: the tab bar, the shown list or overlay, the message line and the status line.
@MainActor
struct ShelfScreen {
    let shelf: ShelfViewModel
    let size: Terminal.Size

    /// One line per terminal row.
    func lines() -> [StyledLine] {
        let bodyHeight = max(0, size.rows - 3)
        var body = content(height: bodyHeight)
        if body.count > bodyHeight { body.removeLast(body.count - bodyHeight) }
        body += Array(repeating: StyledLine(), count: bodyHeight - body.count)
        let lines = [tabBar()] + body + [messageLine(), statusLine()]
        return Array(lines.prefix(size.rows))
    }

    private func content(height: Int) -> [StyledLine] {
        switch shelf.mode {
        case .help: return HelpScreen.lines
        case .form(let form): return FormScreen(form: form).lines()
        case .list, .searching, .confirm: return listContent(height: height)
        }
    }

    private func listContent(height: Int) -> [StyledLine] {
        switch shelf.tab {
        case .books: BooksScreen(model: shelf.books).lines(height: height, width: size.columns)
        case .tasks: TasksScreen(model: shelf.tasks).lines(height: height)
        case .journal: JournalScreen(model: shelf.journal, isSearching: isSearching).lines(height: height)
        case .todos: TodosScreen(model: shelf.todos).lines(height: height)
        }
    }

    private var isSearching: Bool {
        if case .searching = shelf.mode { return true }
        return false
    }

    private func tabBar() -> StyledLine {
        var spans: [(text: String, style: TextStyle)] = [(" bookshelf ", .bar)]
        for tab in ShelfViewModel.Tab.allCases {
            spans.append((" \(tab.rawValue) ", tab == shelf.tab ? .selected : .bar))
        }
        spans.append(("  Tab: switch  ?: help  q: quit", .bar))
        return StyledLine(spans: spans, fill: .bar)
    }

    private func messageLine() -> StyledLine {
        if case .confirm(let question, _) = shelf.mode { return StyledLine("\(question) (y/n)", .bold) }
        if let message = shelf.message { return StyledLine(message, message.hasPrefix("Error") ? .error : .bold) }
        return StyledLine()
    }

    private func statusLine() -> StyledLine {
        StyledLine(" \(shelf.counts) │ store: \(shelf.storePath)", .bar)
    }
}

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
