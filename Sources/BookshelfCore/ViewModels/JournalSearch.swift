import Foundation
import Strata

// The single place the journal search is defined: exactly the Core Data app's predicate,
// `title CONTAINS[c] %@ OR content CONTAINS[c] %@`, as a `FormatPredicate` in the fetch descriptor, so the store
// runs it as SQL (case-insensitive, not diacritic-insensitive — add `[cd]` here to ignore accents too). The same
// descriptor works as a `ResultsObserver`'s `fetchDescriptor`; setting it there re-fetches the observer's results.

/// The journal's search: newest first, title OR content containing the text regardless of case.
enum JournalSearch {
    /// The fetch for `text`: every entry for an empty text (no predicate), newest first.
    static func descriptor(matching text: String) -> FetchDescriptor<JournalEntry> {
        var descriptor = FetchDescriptor<JournalEntry>(sortBy: [SortDescriptor(\.date, order: .reverse)])
        if !text.isEmpty {
            descriptor.formatPredicate = FormatPredicate(
                format: "title CONTAINS[c] %@ OR content CONTAINS[c] %@", text, text)
        }
        return descriptor
    }

    /// The entries matching `text` (all of them for an empty text), newest first.
    ///
    /// - Throws: the errors of `ModelContext.fetch(_:)`.
    static func entries(in shelf: Shelf, matching text: String) throws -> [JournalRecord] {
        try shelf.records(descriptor(matching: text), JournalRecord.init)
    }
}
