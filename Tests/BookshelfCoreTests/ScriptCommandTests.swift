import Foundation
import Strata
import Testing

@testable import BookshelfCore

@Suite("Scripting commands and --where")
struct ScriptCommandTests {
    private func shelfWithBooks() throws -> Shelf {
        let shelf = try TestStores.memory()
        for (title, author, publisher) in [
            ("Dune", "Frank Herbert", "Chilton"), ("Kindred", "Octavia E. Butler", "Doubleday"),
            ("Ficciones", "Jorge Luis Borges", "Sur"),
        ] {
            try shelf.addBook(BookDraft(title: title, author: author, publisher: publisher))
        }
        return shelf
    }

    @Test("A malformed --where reports the parser's message with a caret under the spot")
    func parseError() throws {
        let shelf = try shelfWithBooks()
        do {
            _ = try ScriptCommand.run(["books", "list", "--where", "title == 'Dune' AND"], shelf: shelf)
            Issue.record("accepted a malformed --where")
        } catch let error as CommandError {
            guard case .invalidWhere(let text) = error else { throw error }
            let lines = text.split(separator: "\n")
            #expect(lines.count == 3)
            #expect(lines[1].contains("title == 'Dune' AND"))
            #expect(lines[2].last == "^")
        }
    }

    @Test("--where runs in the store with Core Data's operators and [c]; --sort orders by title")
    func filtersAndSorts() throws {
        let shelf = try shelfWithBooks()
        func list(_ arguments: String...) throws -> String {
            try ScriptCommand.run(["books", "list"] + arguments, shelf: shelf)
        }
        #expect(try list("--where", "title CONTAINS[c] 'DUN'") == "Dune — Frank Herbert (Chilton)")
        #expect(try list("--where", "title CONTAINS 'DUN'").isEmpty)
        #expect(
            try list("--where", "author BEGINSWITH 'Jorge' OR publisher == 'Chilton'", "--sort", "-title")
                == "Ficciones — Jorge Luis Borges (Sur)\nDune — Frank Herbert (Chilton)")
        #expect(try list("--where", "NOT title IN {'Dune', 'Kindred'}") == "Ficciones — Jorge Luis Borges (Sur)")
        #expect(try list("--where", "title LIKE[c] 'k*d'") == "Kindred — Octavia E. Butler (Doubleday)")
        #expect(
            try list("--where", "publisher ENDSWITH[c] 'DAY' AND (title != 'Dune' OR author == 'x')")
                == "Kindred — Octavia E. Butler (Doubleday)")
        #expect(
            try list("--where", "title >= 'F'", "--sort", "title")
                == "Ficciones — Jorge Luis Borges (Sur)\nKindred — Octavia E. Butler (Doubleday)")
        #expect(try list("--where", "FALSEPREDICATE").isEmpty)
        #expect(throws: CommandError.invalidValue(option: "--sort", value: "author", expected: "title or -title")) {
            try list("--sort", "author")
        }
    }

    @Test("An unknown key is refused by the store with an error naming the key and the entity's properties")
    func unknownKey() throws {
        let shelf = try shelfWithBooks()
        do {
            _ = try ScriptCommand.run(["books", "list", "--where", "title == 'Dune' OR isbn == '1'"], shelf: shelf)
            Issue.record("accepted an unknown key")
        } catch let error as CommandError {
            guard case .unsupportedWhere(let text) = error else { throw error }
            #expect(text.contains("Book has no persistent property 'isbn'"))
            #expect(text.contains("title"))
            #expect(!text.contains("Dune"), "bound values stay hidden")
        }
    }

    @Test("A bad --where exits with status 2, a good one with 0")
    @MainActor
    func exitStatus() async {
        #expect(await Bookshelf.main(["--in-memory", "books", "list", "--where", "isbn == '1'"]) == 2)
        #expect(await Bookshelf.main(["--in-memory", "books", "list", "--where", "title ==[c]"]) == 2)
        #expect(await Bookshelf.main(["--in-memory", "books", "list", "--where", "$x == 1"]) == 2)
        #expect(await Bookshelf.main(["--in-memory", "books", "list", "--where", "title ==[c] 'dune'"]) == 0)
    }

    @Test("Tasks compare numbers, booleans and dates in the store")
    func typedComparisons() throws {
        let shelf = try TestStores.memory()
        _ = try ScriptCommand.run(
            ["tasks", "add", "--title", "taxes", "--priority", "3", "--due", "2030-04-15"], shelf: shelf)
        _ = try ScriptCommand.run(
            ["tasks", "add", "--title", "walk", "--priority", "1", "--due", "2030-01-01"], shelf: shelf)
        func titles(_ format: String) throws -> String {
            try ScriptCommand.run(["tasks", "list", "--where", format], shelf: shelf)
                .split(separator: "\n").map { $0.split(separator: " ")[2] }.joined(separator: ",")
        }
        #expect(try titles("priority > 2") == "taxes")
        #expect(try titles("priority <= 3 AND priority != 3") == "walk")
        #expect(try titles("isCompleted == NO AND priority BETWEEN {1, 2}") == "walk")
        #expect(try titles("dueDate > CAST(0, 'NSDate')") == "walk,taxes")
        #expect(try titles("dueDate < CAST(917827200, 'NSDate')") == "walk")
    }

    @Test("add names a missing required field; --json prints the stored values")
    func addAndJSON() throws {
        let shelf = try TestStores.memory()
        #expect(throws: CommandError.missingField("publisher")) {
            try ScriptCommand.run(["books", "add", "--title", "Dune", "--author", "Frank Herbert"], shelf: shelf)
        }
        #expect(throws: CommandError.missingField("title")) { try ScriptCommand.run(["journal", "add"], shelf: shelf) }
        #expect(throws: CommandError.missingValue("--title")) {
            try ScriptCommand.run(["tasks", "add", "--title"], shelf: shelf)
        }
        let added = try ScriptCommand.run(
            ["journal", "add", "--title", "Hi", "--content", "Cães", "--date", "2030-01-02", "--json"],
            shelf: shelf)
        #expect(added.contains(#""content" : "Cães""#))
        #expect(added.contains(#""date" : "2030-01-02T00:00:00Z""#))
    }
}
