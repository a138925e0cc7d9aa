import Foundation
import Strata
import StrataState

/// The container `@ModelState` reads, set by `main` once the store is open and before any model state is read.
@MainActor
enum OpenedStore {
    /// The open container.
    static var container: ModelContainer?

    /// The open container; an empty in-memory one only if a model state is read before `main` opened the store.
    static func current() -> ModelContainer {
        if let container { return container }
        do {
            let fallback = try StoreLocation.memory.openContainer()
            container = fallback
            return fallback
        } catch {
            preconditionFailure("bookshelf could not create even an in-memory store: \(error)")
        }
    }
}

extension Application {
    /// The registration of AppState's `ModelState` example: the one container every `ModelState` uses.
    var modelContainer: Dependency<ModelContainer> {
        modelContainer(OpenedStore.current())
    }

    /// The example's to-dos, sorted by title.
    var todoItems: ModelState<TodoItem> {
        modelState(
            container: \.modelContainer,
            fetchDescriptor: FetchDescriptor<TodoItem>(sortBy: [SortDescriptor(\.title)]), id: "todoItems")
    }
}
