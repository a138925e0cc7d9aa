import Foundation
import Observation
import Strata

/// The books screen (a SwiftData book-list app's): books sorted by title; add, edit and delete.
@MainActor
@Observable
final class BookListViewModel {
    @ObservationIgnored private let shelf: Shelf
    /// The books, live.
    let list: LiveRows<BookRecord>
    /// What the screen shows when there are no books (the SwiftData app's `ContentUnavailableView`).
    let emptyMessage = "Add your first book!"

    /// A view model over `shelf`'s books.
    init(shelf: Shelf) {
        self.shelf = shelf
        list = LiveRows(watching: Book.self, in: ModelContext(shelf.container)) {
            try shelf.records(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]), BookRecord.init)
        }
    }

    /// Adds a book.
    ///
    /// - Throws: `CommandError.missingField` while a required field is empty, or a `StrataError`.
    func add(_ draft: BookDraft) throws {
        try shelf.addBook(draft)
        list.refresh()
    }

    /// Saves `draft` over `book` when something changed.
    ///
    /// - Returns: whether anything was saved.
    /// - Throws: `CommandError.missingField` while a required field is empty, or a `StrataError`.
    @discardableResult
    func edit(_ book: BookRecord, to draft: BookDraft) throws -> Bool {
        let saved = try shelf.editBook(book.id, to: draft)
        list.refresh(selecting: book.id)
        return saved
    }

    /// Deletes `book`.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func delete(_ book: BookRecord) throws {
        try shelf.delete(book.id, as: Book.self)
        list.refresh()
    }
}
