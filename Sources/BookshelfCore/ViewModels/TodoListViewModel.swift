import Foundation
import Observation
import Strata
import StrataState

/// The to-do screen (AppState's `ModelState` example), driven through `@ModelState`.
///
/// Reads go through the container's main context, as `ModelState` defines; the live list observes that context,
/// so to-dos another process inserts, changes or deletes show up (the observer reloads the registered models).
@MainActor
@Observable
final class TodoListViewModel {
    @ObservationIgnored @ModelState(\.todoItems) var todoItems: [TodoItem]
    /// The to-dos, live.
    let list: LiveRows<TodoRecord>

    init() {
        let state = Application.modelState(\.todoItems)
        list = LiveRows(watching: TodoItem.self, in: state.context) {
            Application.modelState(\.todoItems).models.map(TodoRecord.init)
        }
    }

    /// Adds a to-do and saves.
    ///
    /// - Throws: `CommandError.missingField("title")` for an empty title.
    func add(title: String) throws {
        guard !title.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandError.missingField("title") }
        $todoItems.insert(TodoItem(title: title))
        list.refresh()
    }

    /// Flips `todo`'s completion and saves.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func toggle(_ todo: TodoRecord) throws {
        guard let item = todoItems.first(where: { $0.persistentModelID == todo.id }) else { return }
        item.isComplete.toggle()
        try $todoItems.strict.save()
        list.refresh(selecting: todo.id)
    }

    /// Deletes `todo` and saves.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func delete(_ todo: TodoRecord) throws {
        guard let item = todoItems.first(where: { $0.persistentModelID == todo.id }) else { return }
        try $todoItems.strict.delete(item)
        list.refresh()
    }

    /// Deletes every to-do and saves.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func clearAll() throws {
        try $todoItems.strict.deleteAll()
        list.refresh()
    }
}
