import Foundation
import Observation
import Strata
import StrataState
import Testing

@Suite("ModelState: observing saves")
@MainActor
struct ModelStateObservationTests {
    @Test(arguments: StoreKind.all)
    func saveFromASecondContextInvalidatesModels(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let state = app.todoItems
        let changed = Flag()
        withObservationTracking {
            _ = state.models
        } onChange: {
            changed.set()
        }
        let other = ModelContext(app.modelContainer.value)
        other.insert(TodoItem(title: "Buy milk"))
        #expect(changed.isSet == false)
        try other.save()
        #expect(changed.isSet)
        #expect(state.models.map(\.title) == ["Buy milk"])
    }

    @Test(arguments: StoreKind.all)
    func saveThroughTheStateInvalidatesModels(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let changed = Flag()
        withObservationTracking {
            _ = app.todoItems.models
        } onChange: {
            changed.set()
        }
        app.allTodoItems.insert(TodoItem(title: "Buy milk"))
        #expect(changed.isSet)
    }

    @Test(arguments: StoreKind.all)
    func saveFromABackgroundContextInvalidatesModels(_ kind: StoreKind) async throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let container = app.modelContainer.value
        let changed = Flag()
        withObservationTracking {
            _ = app.todoItems.models
        } onChange: {
            changed.set()
        }
        try await Task.detached {
            let background = ModelContext(container)
            background.insert(TodoItem(title: "Buy milk"))
            try background.save()
        }.value
        #expect(changed.isSet)
        #expect(app.todoItems.models.map(\.title) == ["Buy milk"])
    }

    @Test func wrappedValueIsObservedInAnObservableViewModel() {
        let app = Application()
        let viewModel = Application.withShared(app) { TodoListViewModel() }
        let changed = Flag()
        withObservationTracking {
            _ = viewModel.todoItems
        } onChange: {
            changed.set()
        }
        viewModel.add(title: "Buy milk")
        #expect(changed.isSet)
    }

    @Test(arguments: StoreKind.all)
    func savesOfAnotherContainerAreIgnored(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let changed = Flag()
        withObservationTracking {
            _ = app.todoItems.models
        } onChange: {
            changed.set()
        }
        let elsewhere = ModelContext(app.scratchContainer.value)
        elsewhere.insert(TodoItem(title: "Buy milk"))
        try elsewhere.save()
        #expect(changed.isSet == false)
    }

    @Test(arguments: StoreKind.all)
    func unsavedChangesDoNotInvalidate(_ kind: StoreKind) throws {
        let app = Application()
        let store = try app.useTodoStore(kind)
        defer { store.cancel() }
        let changed = Flag()
        withObservationTracking {
            _ = app.todoItems.models
        } onChange: {
            changed.set()
        }
        ModelContext(app.modelContainer.value).insert(TodoItem(title: "Buy milk"))
        #expect(changed.isSet == false)
    }
}

@Suite("ModelState: observing other processes")
@MainActor
struct ModelStateExternalChangeTests {
    @Test func commitByAnotherConnectionInvalidatesModels() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelstate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("todos.store")
        let container = try ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(url: url))
        let app = Application()
        let override = app.override(\.externalTodoContainer, with: container)
        defer { override.cancel() }
        let state: Application.ModelState<TodoItem> = app.modelState(container: \.externalTodoContainer, id: "externalTodos")
        #expect(state.container === container)
        let changed = Flag()
        withObservationTracking {
            _ = state.models
        } onChange: {
            changed.set()
        }
        // Another process: a plain SQLite connection on the same file, not a Strata context.
        let other = try SQLiteConnection(location: .file(url.path))
        try other.run("INSERT INTO \"TodoItem\" (\"title\", \"isComplete\") VALUES ('from elsewhere', 0)", [])
        let deadline = ContinuousClock.now + .seconds(5)
        while !changed.isSet, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(changed.isSet)
    }
}

extension Application {
    fileprivate var externalTodoContainer: Dependency<ModelContainer> {
        modelContainer(ModelContainerPlaceholder.make(), id: "externalTodoContainer")
    }
}

/// An in-memory container the test replaces with its file-backed one.
private enum ModelContainerPlaceholder {
    static func make() -> ModelContainer {
        (try? ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true)))
            ?? { preconditionFailure("an in-memory container can always be created") }()
    }
}
