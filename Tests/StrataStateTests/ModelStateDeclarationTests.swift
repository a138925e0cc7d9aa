import Foundation
import Strata
import StrataState
import Testing

@Suite("ModelState: declaring containers and states")
@MainActor
struct ModelStateDeclarationTests {
    @Test func containerAutoclosureRunsOncePerApplication() {
        let app = Application()
        let first = app.countedContainer.value
        _ = app.countedTodoItems.models
        app.countedTodoItems.insert(TodoItem(title: "Buy milk"))
        #expect(app.countedContainer.value === first)
        #expect(app.countedTodoItems.container === first)
        #expect(app.creationLog.value.count == 1)
    }

    @Test func containersDeclaredWithoutIdsStayApart() {
        let app = Application()
        #expect(app.scratchContainer.value !== app.otherContainer.value)
        #expect(app.scratchContainer.scope != app.otherContainer.scope)
        #expect(app.scratchContainer.scope.feature == "App")
    }

    @Test func statesShareTheContainersMainContext() {
        let app = Application()
        let main = app.modelContainer.value.mainContext
        #expect(app.todoItems.context === main)
        #expect(app.allTodoItems.context === main)
        #expect(app.todoItems.strict.context === main)
        #expect(Application.withShared(app) { Application.modelContext(\.modelContainer) } === main)
    }

    @Test func scopesNameTheDeclaration() {
        let app = Application()
        #expect(app.todoItems.scope == Application.Scope(feature: "App", id: "todoItems"))
        #expect(app.openTodoItems.scope == Application.Scope(feature: "Todo", id: "open"))
        #expect(app.allTodoItems.scope.id.contains("allTodoItems"))
    }

    @Test func staticAccessorReadsTheSharedApplication() {
        let app = Application()
        Application.withShared(app) {
            let state = Application.modelState(\.todoItems)
            state.insert(TodoItem(title: "Walk the dog"))
            state.insert(TodoItem(title: "Buy milk"))
        }
        #expect(app.todoItems.models.map(\.title) == ["Buy milk", "Walk the dog"])
        #expect(Application.withShared(Application()) { Application.modelState(\.todoItems).models.isEmpty })
    }

    @Test func statesFollowAnOverriddenContainer() {
        let app = Application()
        let replacement = makeTodoContainer()
        let token = app.override(\.modelContainer, with: replacement)
        app.todoItems.insert(TodoItem(title: "Buy milk"))
        #expect(app.todoItems.container === replacement)
        token.cancel()
        #expect(app.todoItems.models.isEmpty)
    }

    @Test func wrapperKeepsTheApplicationItWasCreatedIn() {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        viewModel.add(title: "Buy milk")
        #expect(app.todoItems.models.map(\.title) == ["Buy milk"])
        #expect(viewModel.$todoItems.container === app.modelContainer.value)
    }
}

/// The wrapper in a struct, as a small service would use it.
@MainActor
private struct TodoSummary {
    @ModelState(\.todoItems) var todoItems: [TodoItem]

    var openCount: Int { todoItems.filter { !$0.isComplete }.count }

    func complete(_ item: TodoItem) throws {
        item.isComplete = true
        try $todoItems.strict.save()
    }
}

@Suite("ModelState: the property wrapper in a struct")
@MainActor
struct ModelStateStructWrapperTests {
    @Test func structReadsAndMutatesThroughTheWrapper() throws {
        let app = Application()
        let summary = Application.withShared(app) { TodoSummary() }
        summary.$todoItems.insert(TodoItem(title: "Buy milk"))
        summary.$todoItems.insert(TodoItem(title: "Call mom"))
        #expect(summary.openCount == 2)
        try summary.complete(try #require(summary.todoItems.first))
        #expect(summary.openCount == 1)
        #expect(app.openTodoItems.models.map(\.title) == ["Call mom"])
    }
}
