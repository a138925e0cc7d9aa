import Foundation
import Strata

/// The relationship workloads' models: authors and their books, deleted with their author.
@Model
final class Author {
    var number: Int
    var name: String
    @Relationship(deleteRule: .cascade, inverse: \Book.author) var books: [Book] = []

    init(number: Int) {
        self.number = number
        name = "author-\(number)"
    }
}

@Model
final class Book {
    var number: Int
    var title: String
    var pages: Int
    var author: Author?

    init(number: Int, author: Author?) {
        self.number = number
        title = "book-\(number)"
        pages = 100 + number % 400
        self.author = author
    }
}

/// The shape of a relationship workload's store: `authors` authors with `booksPerAuthor` books each, book *i*
/// written by author *i* mod `authors`.
struct LibraryShape {
    var authors: Int
    var booksPerAuthor: Int
    var books: Int { authors * booksPerAuthor }

    /// The author of book `number`.
    func author(ofBook number: Int) -> Int { number % authors }
}
