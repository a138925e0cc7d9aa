import Foundation
import Strata
import StrataState
import Testing

@testable import BookshelfCore

@MainActor
@Suite("To-dos through @ModelState", .serialized)
struct TodoListViewModelTests {
    @Test("Add, toggle, delete and clear all go through ModelState and the store")
    func lifecycle() throws {
        let container = try StoreLocation.memory.openContainer()
        let override = Application.override(\.modelContainer, with: container)
        defer { override.cancel() }
        let model = TodoListViewModel()
        #expect(model.list.rows.isEmpty)
        try model.add(title: "Milk")
        try model.add(title: "Bread")
        #expect(model.list.rows.map(\.title) == ["Bread", "Milk"])
        #expect(throws: CommandError.missingField("title")) { try model.add(title: " ") }

        try model.toggle(try #require(model.list.rows.last))
        #expect(model.list.rows.last?.isComplete == true)
        let stored = try ModelContext(container).fetch(
            FetchDescriptor<TodoItem>(predicate: #Predicate { $0.isComplete }))
        #expect(stored.map(\.title) == ["Milk"])

        try model.delete(try #require(model.list.rows.first))
        #expect(model.list.rows.map(\.title) == ["Milk"])
        try model.add(title: "Eggs")
        try model.clearAll()
        #expect(model.list.rows.isEmpty)
        #expect(try ModelContext(container).fetchCount(FetchDescriptor<TodoItem>()) == 0)
    }

    @Test("A to-do changed by another process shows its new value, though ModelState's main context loaded it")
    func seesOtherProcesses() async throws {
        let path = TestStores.temporaryPath()
        defer { TestStores.remove(path) }
        let container = try StoreLocation.file(path).openContainer()
        let override = Application.override(\.modelContainer, with: container)
        defer { override.cancel() }
        let model = TodoListViewModel()
        try model.add(title: "Milk")
        let milk = try #require(model.list.rows.first)
        #expect(milk.isComplete == false)

        let theirs = Shelf(container: try StoreLocation.file(path).openContainer())
        try theirs.update(milk.id, as: TodoItem.self) { item in
            item.isComplete = true
            return true
        }
        for _ in 0..<100 where model.list.rows.first?.isComplete != true {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(model.list.rows.first?.isComplete == true)
        #expect(model.todoItems.first?.isComplete == true)
    }
}
