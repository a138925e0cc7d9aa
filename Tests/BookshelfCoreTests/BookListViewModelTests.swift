import Foundation
import Strata
import Testing

@testable import BookshelfCore

@MainActor
@Suite("Books view model")
struct BookListViewModelTests {
    @Test("Books are listed by title; the empty list invites the first book")
    func sortedByTitle() throws {
        let model = BookListViewModel(shelf: try TestStores.memory())
        #expect(model.list.rows.isEmpty)
        #expect(model.emptyMessage == "Add your first book!")
        try model.add(BookDraft(title: "Kindred", author: "Octavia E. Butler", publisher: "Doubleday"))
        try model.add(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        #expect(model.list.rows.map(\.title) == ["Dune", "Kindred"])
    }

    @Test("Adding is refused while a required field is empty, naming it")
    func requiredFields() throws {
        let model = BookListViewModel(shelf: try TestStores.memory())
        #expect(throws: CommandError.missingField("author")) {
            try model.add(BookDraft(title: "Dune", author: " ", publisher: "Chilton"))
        }
        #expect(throws: CommandError.missingField("title")) { try model.add(BookDraft()) }
        #expect(model.list.rows.isEmpty)
    }

    @Test("Editing saves only when a field changed, summary included")
    func editSavesChanges() throws {
        let model = BookListViewModel(shelf: try TestStores.memory())
        try model.add(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        let dune = try #require(model.list.selected)
        #expect(try model.edit(dune, to: BookDraft(dune)) == false)
        var draft = BookDraft(dune)
        draft.summary = "Spice.\nSand."
        #expect(try model.edit(dune, to: draft) == true)
        #expect(model.list.rows.first?.summary == "Spice.\nSand.")
        #expect(throws: CommandError.missingField("publisher")) {
            try model.edit(dune, to: BookDraft(title: "Dune", author: "Frank Herbert", publisher: ""))
        }
    }

    @Test("Deleting removes the book and keeps the selection in range")
    func delete() throws {
        let model = BookListViewModel(shelf: try TestStores.memory())
        try model.add(BookDraft(title: "A", author: "x", publisher: "y"))
        try model.add(BookDraft(title: "B", author: "x", publisher: "y"))
        model.list.move(by: 1)
        try model.delete(try #require(model.list.selected))
        #expect(model.list.rows.map(\.title) == ["A"])
        #expect(model.list.cursor.index == 0)
    }
}
