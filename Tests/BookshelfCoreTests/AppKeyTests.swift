import Foundation
import Strata
import StrataState
import Testing

@testable import BookshelfCore

@MainActor
@Suite("Keys drive the app", .serialized)
struct AppKeyTests {
    private func app() throws -> (App, Application.DependencyOverride) {
        let container = try StoreLocation.memory.openContainer()
        let override = Application.override(\.modelContainer, with: container)
        let shelf = ShelfViewModel(shelf: Shelf(container: container), storePath: "(in memory)")
        return (App(shelf: shelf), override)
    }

    private func type(_ text: String, into app: App) {
        for character in text { app.handle(.character(character)) }
    }

    @Test("a opens the book form; Enter saves once every required field is filled; Esc cancels")
    func addBookByKeys() throws {
        let (app, override) = try app()
        defer { override.cancel() }
        app.handle(.character("a"))
        type("Dune", into: app)
        app.handle(.enter)
        guard case .form(let form) = app.shelf.mode else { Issue.record("form closed"); return }
        #expect(form.error == "missing required field: author")
        app.handle(.tab)
        type("Frank Herbert", into: app)
        app.handle(.tab)
        type("Chilton", into: app)
        app.handle(.enter)
        #expect(app.shelf.books.list.rows.map(\.title) == ["Dune"])
        guard case .list = app.shelf.mode else { Issue.record("form still open"); return }

        app.handle(.character("a"))
        app.handle(.escape)
        guard case .list = app.shelf.mode else { Issue.record("Esc did not cancel"); return }
    }

    @Test("d asks first; only y deletes. Tab switches lists, ? shows help, q and Ctrl-C quit")
    func navigation() throws {
        let (app, override) = try app()
        defer { override.cancel() }
        try app.shelf.books.add(BookDraft(title: "Dune", author: "Frank Herbert", publisher: "Chilton"))
        app.handle(.character("d"))
        app.handle(.character("n"))
        #expect(app.shelf.books.list.rows.count == 1)
        app.handle(.character("d"))
        app.handle(.character("y"))
        #expect(app.shelf.books.list.rows.isEmpty)

        app.handle(.tab)
        #expect(app.shelf.tab == .tasks)
        app.handle(.backTab)
        app.handle(.backTab)
        #expect(app.shelf.tab == .authors)
        app.handle(.character("?"))
        guard case .help = app.shelf.mode else { Issue.record("no help"); return }
        app.handle(.character("x"))
        app.handle(.control("c"))
        #expect(app.shelf.isFinished)
    }

    @Test("/ types into the journal search; the list follows each key")
    func searchByKeys() throws {
        let (app, override) = try app()
        defer { override.cancel() }
        try app.shelf.journal.add(title: "Market", content: "milk")
        try app.shelf.journal.add(title: "Travel", content: "Lisbon")
        app.shelf.switchTab(by: 2)
        app.handle(.character("/"))
        type("MIL", into: app)
        #expect(app.shelf.journal.list.rows.map(\.title) == ["Market"])
        app.handle(.backspace)
        app.handle(.backspace)
        app.handle(.backspace)
        #expect(app.shelf.journal.list.rows.count == 2)
        app.handle(.escape)
        app.handle(.character("q"))
        #expect(app.shelf.isFinished)
    }
}
