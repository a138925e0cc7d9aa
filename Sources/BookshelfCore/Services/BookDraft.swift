import Foundation

/// The fields of a book being added or edited, checked before anything is saved.
struct BookDraft: Equatable, Sendable {
    var title = ""
    var author = ""
    var publisher = ""
    var summary = ""

    /// The first required field (title, author, publisher — the SwiftData app's order) that is empty, if any.
    var missingField: String? {
        let required = [("title", title), ("author", author), ("publisher", publisher)]
        return required.first { $0.1.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }?.0
    }
}

extension Shelf {
    /// Adds a book.
    ///
    /// - Returns: the saved book's snapshot.
    /// - Throws: `CommandError.missingField` naming the first empty required field, or the errors of `save()`.
    @discardableResult
    func addBook(_ draft: BookDraft) throws -> BookRecord {
        if let missing = draft.missingField { throw CommandError.missingField(missing) }
        let book = Book(title: draft.title, author: draft.author, publisher: draft.publisher, summary: draft.summary)
        try insert(book)
        return BookRecord(book)
    }

    /// Writes `draft` over the book with `id` when any field differs (the SwiftData app's `updated` check).
    ///
    /// - Returns: whether the book changed and was saved.
    /// - Throws: `CommandError.missingField`, `StrataError.modelNotInContext`, or the errors of `save()`.
    @discardableResult
    func editBook(_ id: BookRecord.ID, to draft: BookDraft) throws -> Bool {
        if let missing = draft.missingField { throw CommandError.missingField(missing) }
        return try update(id, as: Book.self) { book in
            let updated =
                draft.title != book.title || draft.author != book.author || draft.publisher != book.publisher
                || draft.summary != book.summary
            guard updated else { return false }
            book.title = draft.title
            book.author = draft.author
            book.publisher = draft.publisher
            book.summary = draft.summary
            return true
        }
    }
}

extension BookDraft {
    /// A draft holding `record`'s current values.
    init(_ record: BookRecord) {
        self.init(title: record.title, author: record.author, publisher: record.publisher, summary: record.summary)
    }
}
