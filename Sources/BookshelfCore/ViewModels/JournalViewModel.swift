import Foundation
import Observation
import Strata

/// The journal screen (a Core Data task-and-journal app's): entries newest first, filtered as the search text is typed.
@MainActor
@Observable
final class JournalViewModel {
    @ObservationIgnored private let shelf: Shelf
    /// The matching entries, live.
    let list: LiveRows<JournalRecord>
    /// The search text; changing it re-runs the search at once. Empty shows every entry.
    var searchText = "" {
        didSet {
            guard searchText != oldValue else { return }
            let shelf = self.shelf
            let text = searchText
            list.requery { try JournalSearch.entries(in: shelf, matching: text) }
        }
    }

    /// A view model over `shelf`'s journal.
    init(shelf: Shelf) {
        self.shelf = shelf
        list = LiveRows(watching: JournalEntry.self, in: ModelContext(shelf.container)) {
            try JournalSearch.entries(in: shelf, matching: "")
        }
    }

    /// Writes a new entry dated now.
    ///
    /// - Throws: `CommandError.missingField("title")` for an empty title, or a `StrataError`.
    func add(title: String, content: String) throws {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandError.missingField("title") }
        try shelf.insert(JournalEntry(title: title, content: content))
        list.refresh()
    }

    /// Saves a new title and content over `entry` when either changed.
    ///
    /// - Returns: whether anything was saved.
    /// - Throws: `CommandError.missingField("title")` for an empty title, or a `StrataError`.
    @discardableResult
    func edit(_ entry: JournalRecord, title: String, content: String) throws -> Bool {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandError.missingField("title") }
        let saved = try shelf.update(entry.id, as: JournalEntry.self) { model in
            guard model.title != title || model.content != content else { return false }
            model.title = title
            model.content = content
            return true
        }
        list.refresh(selecting: entry.id)
        return saved
    }

    /// Deletes `entry`.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func delete(_ entry: JournalRecord) throws {
        try shelf.delete(entry.id, as: JournalEntry.self)
        list.refresh()
    }
}
