import Foundation
import Strata

// TEMPORARY — the single place to switch the journal search to a store-side predicate.
//
// Core Data's seed filters with `title CONTAINS[c] %@ OR content CONTAINS[c] %@`. Strata's FetchDescriptor does not
// accept format predicates yet and `#Predicate` has no case-insensitive `contains` translation yet, so this fetches
// the entries newest first and filters in Swift. When `localizedStandardContains` lands, replace the body of
// `entries(in:matching:)` with:
//
//     let predicate = #Predicate<JournalEntry> {
//         $0.title.localizedStandardContains(text) || $0.content.localizedStandardContains(text)
//     }
//     return try shelf.records(FetchDescriptor(predicate: predicate, sortBy: [SortDescriptor(\.date, order: .reverse)]),
//                              JournalRecord.init)

/// The journal's search: newest first, title OR content containing the text regardless of case.
enum JournalSearch {
    /// The entries matching `text` (all of them for an empty text), newest first.
    ///
    /// - Throws: the errors of `ModelContext.fetch(_:)`.
    static func entries(in shelf: Shelf, matching text: String) throws -> [JournalRecord] {
        let all = try shelf.records(FetchDescriptor<JournalEntry>(sortBy: [SortDescriptor(\.date, order: .reverse)]),
                                    JournalRecord.init)
        guard !text.isEmpty else { return all }
        return all.filter { matches($0.title, text) || matches($0.content, text) }
    }

    /// `CONTAINS[c]`: whether `text` occurs in `value` ignoring case.
    static func matches(_ value: String, _ text: String) -> Bool {
        value.range(of: text, options: [.caseInsensitive]) != nil
    }
}
