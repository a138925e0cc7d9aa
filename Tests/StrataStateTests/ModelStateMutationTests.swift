import Foundation
import Strata
import StrataState
import Testing

@Suite("ModelState: tolerant and strict mutators")
@MainActor
struct ModelStateMutationTests {
    /// An application whose ``Application/scratchContainer`` is a read-only store holding one item,
    /// with a recorder as its logger.
    private func makeReadOnlyApplication(
        _ store: TodoStore
    ) throws -> (Application, LogRecorder, Application.DependencyOverride) {
        let context = ModelContext(try store.container())
        context.insert(TodoItem(title: "Stored"))
        try context.save()
        let readOnly = try store.container(allowsSave: false)
        let app = Application()
        let recorder = LogRecorder()
        app.logger = recorder
        let token = app.override(\.scratchContainer, with: readOnly)
        return (app, recorder, token)
    }

    @Test(arguments: StoreKind.all)
    func tolerantInsertLogsTheFailureAndReturns(_ kind: StoreKind) throws {
        let store = TodoStore(kind)
        let (app, recorder, token) = try makeReadOnlyApplication(store)
        defer { token.cancel() }
        let state = app.scratchTodoItems

        state.insert(TodoItem(title: "New")); let line = #line

        let entry = try #require(recorder.entries.last)
        #expect(entry.level == .error)
        #expect(entry.message.contains("App.scratch failed to insert TodoItem"))
        #expect(entry.message.contains("read-only"))
        #expect(entry.fileID == "StrataStateTests/ModelStateMutationTests.swift")
        #expect(entry.line == line)
        state.context.rollback()
        #expect(state.models.map(\.title) == ["Stored"])
    }

    @Test(arguments: StoreKind.all)
    func strictMutatorsThrowTheStrataError(_ kind: StoreKind) throws {
        let store = TodoStore(kind)
        let (app, recorder, token) = try makeReadOnlyApplication(store)
        defer { token.cancel() }
        let state = app.scratchTodoItems
        let readOnly = StrataError.readOnlyContainer(operation: "save")

        #expect(throws: readOnly) { try state.strict.insert(TodoItem(title: "New")) }
        state.context.rollback()
        let stored = try #require(state.models.first)
        #expect(throws: readOnly) { try state.strict.delete(stored) }
        state.context.rollback()
        stored.title = "Renamed"
        #expect(throws: readOnly) { try state.strict.save() }
        state.context.rollback()
        #expect(throws: readOnly) { try state.strict.deleteAll() }
        state.context.rollback()
        #expect(recorder.entries.isEmpty)
        #expect(state.models.map(\.title) == ["Stored"])
    }

    @Test(arguments: StoreKind.all)
    func everyTolerantMutatorLogsItsOwnFailure(_ kind: StoreKind) throws {
        let store = TodoStore(kind)
        let (app, recorder, token) = try makeReadOnlyApplication(store)
        defer { token.cancel() }
        let state = app.scratchTodoItems
        let stored = try #require(state.models.first)

        state.delete(stored)
        state.context.rollback()
        stored.title = "Renamed"
        state.save()
        state.context.rollback()
        state.deleteAll()
        state.context.rollback()

        let messages = recorder.entries.filter { $0.level == .error }.map(\.message)
        #expect(messages.count == 3)
        #expect(messages[0].contains("failed to delete TodoItem"))
        #expect(messages[1].contains("failed to save TodoItem"))
        #expect(messages[2].contains("failed to deleteAll TodoItem"))
    }

    @Test(arguments: StoreKind.all)
    func tolerantMutatorsLogNothingOnSuccess(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let recorder = LogRecorder()
        app.logger = recorder
        let state = app.allTodoItems
        state.insert(TodoItem(title: "Buy milk"))
        let item = try #require(state.models.first)
        item.isComplete = true
        state.save()
        state.delete(item)
        #expect(recorder.entries.isEmpty)
        #expect(state.models.isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func deleteAllWithAPredicateDeletesOnlyWhatItMatches(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let all = app.allTodoItems
        all.insert(TodoItem(title: "Buy milk"))
        all.insert(TodoItem(title: "Call mom", isComplete: true))
        all.insert(TodoItem(title: "Walk the dog"))
        #expect(app.openTodoItems.models.map(\.title) == ["Buy milk", "Walk the dog"])

        app.openTodoItems.deleteAll()

        #expect(app.openTodoItems.models.isEmpty)
        #expect(all.models.map(\.title) == ["Call mom"])
        #expect(all.context.hasChanges == false)
        let stored = try ModelContext(app.modelContainer.value).fetch(FetchDescriptor<TodoItem>())
        #expect(stored.map(\.title) == ["Call mom"])
    }

    @Test(arguments: StoreKind.all)
    func deleteAllWithoutAPredicateDeletesEveryModel(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let all = app.allTodoItems
        all.insert(TodoItem(title: "Buy milk"))
        all.insert(TodoItem(title: "Call mom", isComplete: true))

        try all.strict.deleteAll()

        #expect(all.models.isEmpty)
        #expect(try ModelContext(app.modelContainer.value).fetchCount(FetchDescriptor<TodoItem>()) == 0)
    }

    @Test func failedFetchLogsAndReadsEmpty() throws {
        let app = Application()
        let recorder = LogRecorder()
        app.logger = recorder
        #expect(app.unstoredNotes.models.isEmpty)
        let entry = try #require(recorder.entries.last)
        #expect(entry.level == .error)
        #expect(entry.message.contains("App.unstoredNotes failed to fetch UnstoredNote"))
        #expect(entry.fileID == "StrataStateTests/ModelStateFixtures.swift")
    }
}
