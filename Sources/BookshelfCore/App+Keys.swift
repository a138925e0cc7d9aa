import Foundation

extension App {
    /// Routes one key to the overlay shown, or to the list.
    func handle(_ key: Key) {
        if key == .control("c") { return shelf.quit() }
        switch shelf.mode {
        case .help:
            shelf.mode = .list
        case .confirm(_, let action):
            shelf.mode = .list
            if key == .character("y") || key == .character("Y") {
                shelf.attempt(action)
            } else {
                shelf.message = "Cancelled"
            }
        case .form(let form):
            handleForm(key, form)
        case .searching:
            handleSearch(key)
        case .list:
            handleList(key)
        }
    }

    private func handleForm(_ key: Key, _ form: FormViewModel) {
        switch key {
        case .escape: shelf.mode = .list
        case .tab, .down: form.moveFocus()
        case .backTab, .up: form.moveFocus(by: -1)
        case .backspace: form.deleteBackward()
        case .delete: form.deleteForward()
        case .left: form.moveCursor(by: -1)
        case .right: form.moveCursor(by: 1)
        case .home: form.moveCursor(toEnd: false)
        case .end: form.moveCursor(toEnd: true)
        case .control("s"): submit(form)
        case .enter: form.focusedField.isMultiline ? form.newline() : submit(form)
        case .character(let character): form.type(String(character))
        default: break
        }
    }

    private func submit(_ form: FormViewModel) {
        if form.submit(), case .form(let shown) = shelf.mode, shown === form { shelf.mode = .list }
    }

    private func handleSearch(_ key: Key) {
        switch key {
        case .enter, .escape, .down: shelf.mode = .list
        case .backspace: if !shelf.journal.searchText.isEmpty { shelf.journal.searchText.removeLast() }
        case .character(let character): shelf.journal.searchText.append(character)
        default: break
        }
    }

    private func handleList(_ key: Key) {
        shelf.message = nil
        switch key {
        case .character("q"): shelf.quit()
        case .character("?"): shelf.mode = .help
        case .tab: shelf.switchTab(by: 1)
        case .backTab: shelf.switchTab(by: -1)
        case .up, .character("k"): moveSelection(by: -1)
        case .down, .character("j"): moveSelection(by: 1)
        case .pageUp: moveSelection(by: -10)
        case .pageDown: moveSelection(by: 10)
        default: handleListAction(key)
        }
    }

    private func moveSelection(by offset: Int) {
        switch shelf.tab {
        case .books: shelf.books.list.move(by: offset)
        case .tasks: shelf.tasks.list.move(by: offset)
        case .journal: shelf.journal.list.move(by: offset)
        case .todos: shelf.todos.list.move(by: offset)
        case .authors: break
        }
    }

    private func handleListAction(_ key: Key) {
        switch (shelf.tab, key) {
        case (.books, .character("a")): shelf.beginAddingBook()
        case (.books, .enter): if let book = shelf.books.list.selected { shelf.beginEditing(book) }
        case (.books, .character("d")):
            if let book = shelf.books.list.selected {
                shelf.confirm("Delete “\(book.title)”?") { [shelf] in try shelf.books.delete(book) }
            }
        case (.tasks, .character("a")): shelf.attempt { try shelf.tasks.add() }
        case (.tasks, .enter), (.tasks, .character(" ")):
            if let task = shelf.tasks.list.selected { shelf.attempt { try shelf.tasks.toggle(task) } }
        case (.tasks, .character("f")): shelf.beginFilteringTasks()
        case (.tasks, .character("d")):
            if let task = shelf.tasks.list.selected {
                shelf.confirm("Delete “\(task.title)”?") { [shelf] in try shelf.tasks.delete(task) }
            }
        case (.journal, .character("/")): shelf.mode = .searching
        case (.journal, .enter): if let entry = shelf.journal.list.selected { shelf.beginEditing(entry) }
        case (.journal, .character("a")): shelf.beginAddingEntry()
        case (.journal, .character("d")):
            if let entry = shelf.journal.list.selected {
                shelf.confirm("Delete “\(entry.title)”?") { [shelf] in try shelf.journal.delete(entry) }
            }
        case (.todos, .character("a")): shelf.beginAddingTodo()
        case (.todos, .enter), (.todos, .character(" ")):
            if let todo = shelf.todos.list.selected { shelf.attempt { try shelf.todos.toggle(todo) } }
        case (.todos, .character("d")):
            if let todo = shelf.todos.list.selected {
                shelf.confirm("Delete “\(todo.title)”?") { [shelf] in try shelf.todos.delete(todo) }
            }
        case (.todos, .character("C")):
            shelf.confirm("Delete all \(shelf.todos.list.rows.count) to-dos?") { [shelf] in try shelf.todos.clearAll() }
        default: break
        }
    }
}
