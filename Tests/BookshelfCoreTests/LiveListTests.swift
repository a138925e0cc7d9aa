import Foundation
import Strata
import Testing

@testable import BookshelfCore

@MainActor
@Suite("Live lists")
struct LiveListTests {
    @Test("A book saved through another container on the same file arrives, reported as the changed row")
    func seesOtherWriters() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let mine = Shelf(container: try StoreLocation.file(path).openContainer())
        let theirs = Shelf(container: try StoreLocation.file(path).openContainer())
        try mine.addBook(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))

        let list = makeLiveList(watching: Book.self, in: ModelContext(mine.container)) {
            try mine.records(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]), BookRecord.init)
        }
        var reported: [Set<PersistentIdentifier>] = []
        list.onChange = { reported.append($0) }
        #expect(list.rows.map(\.title) == ["Dune"])

        try theirs.addBook(BookDraft(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday"))
        for _ in 0..<100 where list.rows.count < 2 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(list.rows.map(\.title) == ["Dune", "Kindred"])
        let kindred = try #require(list.rows.last)
        #expect(reported.last == [kindred.id])

        // An edit by the other writer changes the fingerprint of that row only.
        let dune = try #require(list.rows.first)
        try theirs.editBook(dune.id, to: BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Ace"))
        for _ in 0..<100 where list.rows.first?.publisher != "Ace" { try await Task.sleep(for: .milliseconds(10)) }
        #expect(list.rows.first?.publisher == "Ace")
        #expect(reported.last == [dune.id])
    }

    @Test("Rows changed by a refresh are highlighted for a while; the first fetch highlights nothing")
    func highlights() throws {
        let shelf = try TestStores.memory()
        try shelf.addBook(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        let rows = LiveRows(watching: Book.self, in: ModelContext(shelf.container)) {
            try shelf.records(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]), BookRecord.init)
        }
        let dune = try #require(rows.rows.first)
        #expect(!rows.isHighlighted(dune))
        try shelf.addBook(BookDraft(title: "Emma", author: "Jane Austen", publisher: "John Murray"))
        rows.refresh()
        let emma = try #require(rows.rows.last)
        #expect(rows.isHighlighted(emma))
        #expect(!rows.isHighlighted(dune))
        #expect(!rows.highlights.contains(emma.id, now: .now + .seconds(2)))
    }

    @Test("The selection stays on the same row when rows appear or vanish before it")
    func selectionFollowsRow() throws {
        let shelf = try TestStores.memory()
        try shelf.addBook(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        try shelf.addBook(BookDraft(title: "Emma", author: "Jane Austen", publisher: "John Murray"))
        let rows = LiveRows(watching: Book.self, in: ModelContext(shelf.container)) {
            try shelf.records(FetchDescriptor<Book>(sortBy: [SortDescriptor(\.title)]), BookRecord.init)
        }
        rows.move(by: 1)
        #expect(rows.selected?.title == "Emma")
        let anna = try shelf.addBook(
            BookDraft(title: "Anna Karenina", author: "Leo Tolstoy", publisher: "The Russian Messenger"))
        rows.refresh()
        #expect(rows.selected?.title == "Emma")
        try shelf.delete(anna.id, as: Book.self)
        rows.refresh()
        #expect(rows.selected?.title == "Emma")
    }
}
