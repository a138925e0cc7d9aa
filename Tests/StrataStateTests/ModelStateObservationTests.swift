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
    /// Runs `body` with a container on a new store of `kind`, given to a new `Application` as `externalTodoContainer`,
    /// and a `ModelState` of its to-dos.
    private func withStore(
        _ kind: StoreKind, id: String,
        _ body: (TodoStore, ModelContainer, Application.ModelState<TodoItem>) async throws -> Void
    ) async throws {
        let store = TodoStore(kind)
        let container = try store.container()
        let app = Application()
        let override = app.override(\.externalTodoContainer, with: container)
        defer { override.cancel() }
        let state: Application.ModelState<TodoItem> = app.modelState(container: \.externalTodoContainer, id: id)
        #expect(state.container === container)
        try await body(store, container, state)
    }

    /// Waits up to five seconds for `flag`.
    private func wait(for flag: Flag) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !flag.isSet, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    @Test func commitByAnotherConnectionInvalidatesModels() async throws {
        try await withStore(.sqlite, id: "externalTodos") { store, _, state in
            let changed = Flag()
            withObservationTracking {
                _ = state.models
            } onChange: {
                changed.set()
            }
            // Another process: a plain SQLite connection on the same file, not a Strata context.
            // (SQLite only: a PostgreSQL store learns of commits from the notifications Strata sends.)
            let other = try SQLiteConnection(location: .file(store.fileURL.path))
            try other.run("INSERT INTO \"TodoItem\" (\"title\", \"isComplete\") VALUES ('from elsewhere', 0)", [])
            try await wait(for: changed)
            #expect(changed.isSet)
        }
    }

    @Test(arguments: StoreKind.all) func saveByAnotherContainerMergedWithAnOwnSaveInvalidatesModels(
        _ kind: StoreKind
    ) async throws {
        try await withStore(kind, id: "mergedTodos") { store, container, state in
            _ = state.models
            // An own save (counted at once by `didSave`; its live-results event waits for the main actor) ...
            let own = ModelContext(container)
            own.insert(TodoItem(title: "mine"))
            try own.save()
            let changed = Flag()
            withObservationTracking {
                _ = state.models
            } onChange: {
                changed.set()
            }
            // ... then another container's, read from the history while the main actor is blocked: one merged event.
            let other = ModelContext(try store.container())
            other.insert(TodoItem(title: "theirs"))
            try other.save()
            usleep(300_000)
            try await wait(for: changed)
            #expect(changed.isSet)
        }
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
