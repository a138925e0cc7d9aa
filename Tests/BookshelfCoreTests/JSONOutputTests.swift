import Foundation
import Testing

@testable import BookshelfCore

@Suite("--json prints valid, tidy JSON in every case")
struct JSONOutputTests {
    /// `text` parsed as JSON; fails the test when it isn't.
    private func parse(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        #expect(value != nil, "not JSON: \(text)", sourceLocation: sourceLocation)
        return value
    }

    /// Whether `text` is tidy: no blank lines, no trailing spaces.
    private func isTidy(_ text: String) -> Bool {
        !text.contains("\n\n") && !text.split(separator: "\n").contains { $0.last == " " || $0.isEmpty }
    }

    @Test("An empty list prints [] for every kind, with or without --where")
    @MainActor
    func emptyLists() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        for kind in ["books", "tasks", "journal"] {
            let run = await CapturedRun.run(["--store", path, kind, "list", "--json"])
            #expect(run.status == 0)
            #expect(run.output == "[]")
        }
        let none = await CapturedRun.run(["--in-memory", "books", "list", "--where", "title == 'x'", "--json"])
        #expect(none.output == "[]")
    }

    @Test("Lists and added records parse, carry their fields, and have no blank lines; notes stay off the output")
    @MainActor
    func listsAndAdds() async throws {
        let books = await CapturedRun.run(["--in-memory", "books", "list", "--json"])
        let array = parse(books.output) as? [[String: Any]]
        #expect(array?.count == 4)
        #expect(array?.first?.keys.sorted() == ["author", "publisher", "summary", "title"])
        #expect(isTidy(books.output))
        #expect(!books.notes.isEmpty, "the sample-data note goes to standard error")

        let tasks = await CapturedRun.run(["--in-memory", "tasks", "list", "--sort", "-title", "--json"])
        #expect((parse(tasks.output) as? [[String: Any]])?.first?["title"] as? String == "Water the plants")
        let journal = await CapturedRun.run(["--in-memory", "journal", "list", "--json"])
        #expect((parse(journal.output) as? [[String: Any]])?.count == 3)

        let added = await CapturedRun.run(
            ["--in-memory", "tasks", "add", "--title", "a \"quoted\" [\n] title", "--due", "2030-01-02", "--json"])
        let task = parse(added.output) as? [String: Any]
        #expect(task?["title"] as? String == "a \"quoted\" [\n] title")
        #expect(task?["dueDate"] as? String == "2030-01-02T00:00:00Z")
        #expect(isTidy(added.output))
    }

    @Test("Empty arrays and objects anywhere in a value are written [] and {}")
    func emptyContainers() throws {
        #expect(try ListOutput.encode([Int]()) == "[]")
        #expect(try ListOutput.encode([String: Int]()) == "{}")
        #expect(try ListOutput.encode(["a": [Int]()]) == "{\n  \"a\" : []\n}")
        #expect(try ListOutput.encode(["[\n]", "{ }"]) == "[\n  \"[\\n]\",\n  \"{ }\"\n]")
    }
}
