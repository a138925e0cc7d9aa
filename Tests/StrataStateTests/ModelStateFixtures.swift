import Foundation
import Strata
import StrataState
import Synchronization

/// A model the test containers don't store, to make fetches fail.
@Model
final class UnstoredNote {
    var text: String

    init(text: String) {
        self.text = text
    }
}

/// A flag an Observation `onChange` closure can set from any thread.
final class Flag: Sendable {
    private let storage = Mutex(false)

    var isSet: Bool { storage.withLock { $0 } }

    func set() {
        storage.withLock { $0 = true }
    }
}

/// A store file in the temporary directory, removed (with its journal files) by `remove()`.
struct TemporaryStoreFile {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("strata-state-\(UUID().uuidString).store")

    func remove() {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: url.path + suffix)
        }
    }
}

/// Creates an in-memory container for ``TodoItem``, recording the creation in `log`.
///
/// A dependency's value can't throw, so this follows the seed's advice: build the container in one
/// helper and make a failure explicit there. An in-memory store only fails to open when SQLite
/// can't allocate memory.
@MainActor
func makeTodoContainer(log: CreationLog? = nil) -> ModelContainer {
    log?.record()
    do {
        return try ModelContainer(for: TodoItem.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
    } catch {
        fatalError("Failed to create the in-memory test container: \(error)")
    }
}

extension Application {
    /// A container the tests replace through `override`; its own value is an empty in-memory store.
    var scratchContainer: Dependency<ModelContainer> {
        modelContainer(makeTodoContainer())
    }

    /// A container whose creation is counted in ``creationLog``.
    var countedContainer: Dependency<ModelContainer> {
        modelContainer(makeTodoContainer(log: creationLog.value))
    }

    /// A second container declared without an id, to check the derived ids stay apart.
    var otherContainer: Dependency<ModelContainer> {
        modelContainer(makeTodoContainer())
    }

    /// Every todo item of ``modelContainer``, unsorted: no descriptor and no id.
    var allTodoItems: ModelState<TodoItem> {
        modelState(container: \.modelContainer)
    }

    /// The incomplete todo items of ``modelContainer``, by title.
    var openTodoItems: ModelState<TodoItem> {
        modelState(
            container: \.modelContainer,
            fetchDescriptor: FetchDescriptor<TodoItem>(
                predicate: #Predicate { $0.isComplete == false },
                sortBy: [SortDescriptor(\.title)]
            ),
            feature: "Todo",
            id: "open"
        )
    }

    /// The todo items of ``scratchContainer``.
    var scratchTodoItems: ModelState<TodoItem> {
        modelState(container: \.scratchContainer, id: "scratch")
    }

    /// The todo items of ``countedContainer``.
    var countedTodoItems: ModelState<TodoItem> {
        modelState(container: \.countedContainer)
    }

    /// Notes of ``modelContainer``, whose schema lacks them.
    var unstoredNotes: ModelState<UnstoredNote> {
        modelState(container: \.modelContainer, id: "unstoredNotes")
    }
}
