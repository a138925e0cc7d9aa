import Foundation
import Strata
import Testing

@testable import BookshelfCore

@Suite("--in-memory starts with sample data and says that nothing is kept")
struct InMemoryStoreTests {
    @Test("Each list of an in-memory store shows the sample rows; a note on standard error says where they come from")
    @MainActor
    func listsShowSampleData() async throws {
        for (kind, rows) in [("books", 4), ("tasks", 4), ("journal", 3)] {
            let run = await CapturedRun.run(["--in-memory", kind, "list"])
            #expect(run.status == 0)
            #expect(run.output.split(separator: "\n").count == rows, "\(kind): \(run.output)")
            #expect(run.notes.count == 1)
            #expect(run.notes.first?.contains("in memory: started with sample data (4 books") == true)
            #expect(run.notes.allSatisfy { !$0.contains("not kept") }, "a read keeps nothing to lose")
        }
        let dune = await CapturedRun.run(["--in-memory", "books", "list", "--where", "title CONTAINS[c] 'dune'"])
        #expect(dune.output == "Dune — Frank Herbert (Chilton)")
    }

    @Test("A write to an in-memory store succeeds and says it is not kept, naming the options that keep it")
    @MainActor
    func writesSayTheyAreNotKept() async throws {
        let commands: [([String], String)] = [
            (["books", "add", "--title", "Solaris", "--author", "Stanisław Lem", "--publisher", "MON"], "book"),
            (["tasks", "add", "--title", "Dust the shelves"], "task"),
            (["journal", "add", "--title", "A quiet day", "--json"], "journal entry"),
        ]
        for (arguments, record) in commands {
            let run = await CapturedRun.run(["--in-memory"] + arguments)
            #expect(run.status == 0)
            #expect(run.notes.count == 2)
            #expect(run.notes.last?.hasPrefix("the \(record) is not kept: an in-memory store is gone") == true)
            #expect(run.notes.last?.contains("--store PATH") == true)
        }
        let again = await CapturedRun.run(["--in-memory", "books", "list"])
        #expect(!again.output.contains("Solaris"), "each run starts from the sample data alone")
    }

    @Test("store migrate on an in-memory store says there is nothing to migrate, and why")
    @MainActor
    func migrateInMemory() async {
        for arguments in [["store", "migrate"], ["store", "migrate", "--dry-run"]] {
            let run = await CapturedRun.run(["--in-memory"] + arguments)
            #expect(run.status == 0)
            #expect(run.output == "An in-memory store starts with bookshelf's current models; nothing to migrate.")
        }
    }

    @Test("A store file gets no sample data and no notes")
    @MainActor
    func fileStoresStayEmpty() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let list = await CapturedRun.run(["--store", path, "books", "list"])
        #expect(list.status == 0 && list.output.isEmpty && list.notes.isEmpty)
        let add = await CapturedRun.run(["--store", path, "tasks", "add", "--title", "kept"])
        #expect(add.status == 0 && add.notes.isEmpty)
        #expect(await CapturedRun.run(["--store", path, "tasks", "list"]).output.contains("kept"))
    }

    @Test("The sample data is saved in one transaction of its own author, counted as the note says")
    func sampleDataCounts() throws {
        let container = try StoreLocation.memory.openContainer()
        let counts = try SampleShelf.fill(container)
        let context = ModelContext(container)
        #expect(try context.fetchCount(FetchDescriptor<Book>()) == counts.books)
        #expect(try context.fetchCount(FetchDescriptor<TaskItem>()) == counts.tasks)
        #expect(try context.fetchCount(FetchDescriptor<JournalEntry>()) == counts.journalEntries)
        #expect(try context.fetchCount(FetchDescriptor<TodoItem>()) == counts.todos)
        let history = try context.fetchHistory(HistoryDescriptor<DefaultHistoryTransaction>())
        #expect(history.map(\.author) == [SampleShelf.author])
    }
}
