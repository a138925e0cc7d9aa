import Foundation
import Strata
import Testing

@testable import BookshelfCore

@MainActor
@Suite("Books per author")
struct AuthorsViewModelTests {
    @Test("Counts books per author, most first, and follows saves here and in another process's container")
    func followsSaves() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let mine = Shelf(container: try StoreLocation.file(path).openContainer())
        let theirs = Shelf(container: try StoreLocation.file(path).openContainer())
        try mine.addBook(BookDraft(title: "Emma", author: "Jane Austen", publisher: "John Murray"))
        try mine.addBook(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try mine.addBook(BookDraft(title: "Persuasion", author: "Jane Austen", publisher: "John Murray"))

        let model = AuthorsViewModel(shelf: mine)
        #expect(model.error == nil)
        #expect(model.rows == [.init(author: "Jane Austen", books: 2), .init(author: "Frank Herbert", books: 1)])

        // A save in this container.
        let kindred = try mine.addBook(BookDraft(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday"))
        for _ in 0..<200 where model.rows.count < 3 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.rows.map(\.author) == ["Jane Austen", "Frank Herbert", "Octavia E. Butler"])

        // Saves by another container on the same file (another bookshelf process).
        try theirs.addBook(BookDraft(title: "Dawn", author: "Octavia E. Butler", publisher: "Warner"))
        try theirs.addBook(BookDraft(title: "Fledgling", author: "Octavia E. Butler", publisher: "Seven Stories"))
        for _ in 0..<200 where model.rows.first?.author != "Octavia E. Butler" {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(model.rows.first == .init(author: "Octavia E. Butler", books: 3))

        // An edit moving a book to another author moves it between the totals.
        try mine.editBook(kindred.id, to: BookDraft(title: "Kindred", author: "Frank Herbert", publisher: "Doubleday"))
        for _ in 0..<200 where model.rows.first(where: { $0.author == "Frank Herbert" })?.books != 2 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(
            model.rows == [
                .init(author: "Frank Herbert", books: 2), .init(author: "Jane Austen", books: 2),
                .init(author: "Octavia E. Butler", books: 2),
            ])
        let lines = AuthorsScreen(model: model).lines(height: 10, width: 60).map { $0.spans.map(\.text).joined() }
        #expect(lines.contains { $0.contains("Frank Herbert") && $0.contains(" 2 ") })
    }
}
