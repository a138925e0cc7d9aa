import Foundation
import Strata

/// A book on the shelf: a SwiftData book-list app's model, unchanged except for the import.
@Model
final class Book {
    var title: String
    var author: String
    var publisher: String
    var summary: String

    init(title: String, author: String, publisher: String, summary: String = "") {
        self.title = title
        self.author = author
        self.publisher = publisher
        self.summary = summary
    }
}
