import Foundation

extension ShelfViewModel {
    /// Opens the form that adds a book; it stays open, with a message, while a required field is empty.
    func beginAddingBook() {
        mode = .form(
            FormViewModel(title: "New book", fields: Self.bookFields(BookDraft())) { [books] texts in
                try books.add(BookDraft(texts))
            })
    }

    /// Opens the form that edits `book`; saving writes only when something changed.
    func beginEditing(_ book: BookRecord) {
        mode = .form(
            FormViewModel(title: "Edit book", fields: Self.bookFields(BookDraft(book))) { [weak self, books] texts in
                let saved = try books.edit(book, to: BookDraft(texts))
                self?.message = saved ? "Saved \(texts[0])" : "Nothing changed"
            })
    }

    /// Opens the form that writes a journal entry.
    func beginAddingEntry() {
        mode = .form(
            FormViewModel(title: "New journal entry", fields: Self.entryFields("", "")) { [journal] texts in
                try journal.add(title: texts[0], content: texts[1])
            })
    }

    /// Opens the form that edits `entry`; saving writes only when something changed.
    func beginEditing(_ entry: JournalRecord) {
        let fields = Self.entryFields(entry.title, entry.content)
        mode = .form(
            FormViewModel(title: "Edit journal entry", fields: fields) { [weak self, journal] texts in
                let saved = try journal.edit(entry, title: texts[0], content: texts[1])
                self?.message = saved ? "Saved \(texts[0])" : "Nothing changed"
            })
    }

    private static func entryFields(_ title: String, _ content: String) -> [FormViewModel.Field] {
        [
            FormViewModel.Field(label: "Title", text: title),
            FormViewModel.Field(label: "Content", text: content, isMultiline: true),
        ]
    }

    /// Opens the form that adds a to-do.
    func beginAddingTodo() {
        mode = .form(
            FormViewModel(title: "New to-do", fields: [FormViewModel.Field(label: "Title", text: "")]) {
                [todos] texts in
                try todos.add(title: texts[0])
            })
    }

    /// Opens the form that sets the task list's category filter (empty shows all).
    func beginFilteringTasks() {
        let field = FormViewModel.Field(label: "Category (empty for all)", text: tasks.category ?? "")
        mode = .form(
            FormViewModel(title: "Filter tasks by category", fields: [field]) { [tasks] texts in
                tasks.filter(category: texts[0])
            })
    }

    private static func bookFields(_ draft: BookDraft) -> [FormViewModel.Field] {
        [
            FormViewModel.Field(label: "Title", text: draft.title),
            FormViewModel.Field(label: "Author", text: draft.author),
            FormViewModel.Field(label: "Publisher", text: draft.publisher),
            FormViewModel.Field(label: "Summary", text: draft.summary, isMultiline: true),
        ]
    }
}

extension BookDraft {
    /// A draft from a form's texts: title, author, publisher, summary.
    init(_ texts: [String]) {
        self.init(
            title: texts.first ?? "", author: texts.dropFirst().first ?? "",
            publisher: texts.dropFirst(2).first ?? "", summary: texts.dropFirst(3).first ?? "")
    }
}
