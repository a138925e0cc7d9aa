import Foundation
import Strata
import StrataState
import Testing

@Suite("ModelState: seed 001's end-to-end example")
@MainActor
struct ModelStateSeedExampleTests {
    /// Reads what is stored through a context of its own, so pending changes of the main context don't count.
    private func storedTitles(in app: Application) throws -> [String] {
        let context = ModelContext(app.modelContainer.value)
        return try context.fetch(FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.title)])).map(\.title)
    }

    @Test func addInsertsAndSavesAndReadsSortedByTitle() throws {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Walk the dog")
        viewModel.add(title: "Buy milk")
        viewModel.add(title: "Call mom")
        #expect(viewModel.todoItems.map(\.title) == ["Buy milk", "Call mom", "Walk the dog"])
        #expect(try storedTitles(in: app) == ["Buy milk", "Call mom", "Walk the dog"])
        #expect(app.modelContainer.value.mainContext.hasChanges == false)
    }

    @Test func toggleSavesTheChange() throws {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Buy milk")
        let item = try #require(viewModel.todoItems.first)
        viewModel.toggle(item)
        let stored = try ModelContext(app.modelContainer.value).fetch(FetchDescriptor<TodoItem>())
        #expect(stored.map(\.isComplete) == [true])
    }

    @Test func removeDeletesAndSaves() throws {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Buy milk")
        viewModel.add(title: "Call mom")
        let milk = try #require(viewModel.todoItems.first)
        viewModel.remove(milk)
        #expect(viewModel.todoItems.map(\.title) == ["Call mom"])
        #expect(try storedTitles(in: app) == ["Call mom"])
    }

    @Test func clearAllDeletesEverythingAndSaves() throws {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Buy milk")
        viewModel.add(title: "Call mom")
        viewModel.clearAll()
        #expect(viewModel.todoItems.isEmpty)
        #expect(try storedTitles(in: app).isEmpty)
    }

    @Test func everyReadFetchesAgain() throws {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Buy milk")
        let other = ModelContext(app.modelContainer.value)
        other.insert(TodoItem(title: "Answer mail"))
        try other.save()
        #expect(viewModel.todoItems.map(\.title) == ["Answer mail", "Buy milk"])
    }

    @Test func viewModelsOfSeparateApplicationsUseSeparateStores() {
        let first = Application.withShared(Application()) { TodoListViewModel() }
        let second = Application.withShared(Application()) { TodoListViewModel() }
        first.add(title: "Buy milk")
        #expect(first.todoItems.count == 1)
        #expect(second.todoItems.isEmpty)
    }
}
