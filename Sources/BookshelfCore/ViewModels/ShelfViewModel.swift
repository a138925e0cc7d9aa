import Foundation
import Observation

/// The whole app: which list is shown, what overlays it (a form, a confirmation, the help, the search box) and
/// the message of the last action.
@MainActor
@Observable
final class ShelfViewModel {
    /// The lists, in Tab order.
    enum Tab: String, CaseIterable {
        case books = "Books", tasks = "Tasks", journal = "Journal", todos = "Todos", authors = "Authors"
    }

    /// What is shown over the list.
    enum Mode {
        case list
        case searching
        case help
        case form(FormViewModel)
        case confirm(question: String, action: @MainActor () throws -> Void)
    }

    let books: BookListViewModel
    let tasks: TaskListViewModel
    let journal: JournalViewModel
    let todos: TodoListViewModel
    /// Books per author, live.
    let authors: AuthorsViewModel
    /// Where the store is, for the status line.
    let storePath: String
    /// How far back the store's history goes, for the status line.
    let history: HistoryStatusViewModel
    /// The list shown.
    var tab = Tab.books
    /// The overlay.
    var mode = Mode.list
    /// The result of the last action, shown above the status line.
    var message: String?
    /// Whether the user asked to quit.
    private(set) var isFinished = false

    /// The app over `shelf`, with `storePath` shown in the status line.
    init(shelf: Shelf, storePath: String) {
        books = BookListViewModel(shelf: shelf)
        tasks = TaskListViewModel(shelf: shelf)
        journal = JournalViewModel(shelf: shelf)
        todos = TodoListViewModel()
        authors = AuthorsViewModel(shelf: shelf)
        history = HistoryStatusViewModel(container: shelf.container)
        self.storePath = storePath
    }

    /// Shows the next (or previous, for a negative `offset`) list.
    func switchTab(by offset: Int) {
        let all = Tab.allCases
        let index = all.firstIndex(of: tab) ?? 0
        tab = all[((index + offset) % all.count + all.count) % all.count]
        mode = .list
    }

    /// Ends the app.
    func quit() { isFinished = true }

    /// Runs `action`, showing its error (if any) as the message.
    func attempt(_ action: () throws -> Void) {
        do {
            try action()
        } catch {
            message = "Error: \(error)"
        }
    }

    /// Asks `question`; `action` runs only if the user confirms.
    func confirm(_ question: String, _ action: @escaping @MainActor () throws -> Void) {
        mode = .confirm(question: question, action: action)
    }

    /// The counts for the status line.
    var counts: String {
        "\(books.list.rows.count) books · \(tasks.list.rows.count) open tasks · \(journal.list.rows.count) entries · "
            + "\(todos.list.rows.count) todos"
    }
}
