import Foundation
import Strata

/// A journal entry of a Core Data task-and-journal app: a title, free text and the moment it was written.
@Model
final class JournalEntry {
    var title: String
    var content: String
    var date: Date

    init(title: String, content: String = "", date: Date = .now) {
        self.title = title
        self.content = content
        self.date = date
    }
}
