import Foundation
import Strata

/// A book on a shelf that syncs through a PostgreSQL hub (`bookshelf sync`): a `Book` with the identity every
/// replica shares, assigned when the book is made, kept when it is deleted so the delete can name it.
@Model
final class SharedBook {
    @Attribute(.unique, .preserveValueOnDeletion) var id = UUID()
    var title: String
    var author: String
    var publisher: String

    init(title: String, author: String, publisher: String) {
        self.title = title
        self.author = author
        self.publisher = publisher
    }
}
