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
        case .authors: AuthorsScreen(model: shelf.authors).lines(height: height, width: size.columns)
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
        StyledLine(" \(shelf.counts) │ store: \(shelf.storePath) │ \(shelf.history.summary)", .bar)
    }
}
