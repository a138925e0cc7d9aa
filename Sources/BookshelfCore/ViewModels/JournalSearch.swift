import Foundation
import Strata

// The single place the journal search is defined. Core Data's seed filters with
// `title CONTAINS[c] %@ OR content CONTAINS[c] %@`; this runs the same search in the store with
// `localizedStandardContains` (case- and also diacritic-insensitive). When `FetchDescriptor` accepts format
// predicates, `FormatPredicate(format: "title CONTAINS[c] %@ OR content CONTAINS[c] %@", text, text)` can replace
// the `#Predicate` here.

/// The journal's search: newest first, title OR content containing the text regardless of case.
enum JournalSearch {
    /// The entries matching `text` (all of them for an empty text), newest first.
    ///
    /// - Throws: the errors of `ModelContext.fetch(_:)`.
    static func entries(in shelf: Shelf, matching text: String) throws -> [JournalRecord] {
        let predicate: Predicate<JournalEntry>? = text.isEmpty ? nil : #Predicate {
            $0.title.localizedStandardContains(text) || $0.content.localizedStandardContains(text)
        }
        return try shelf.records(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.date, order: .reverse)]),
                                 JournalRecord.init)
    }
}
