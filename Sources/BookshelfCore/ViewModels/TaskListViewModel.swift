import Foundation
import Observation
import Strata

/// The tasks screen (a Core Data task-and-journal app's): incomplete tasks by due date, then priority (highest first), optionally
/// limited to one category by a predicate built at run time.
@MainActor
@Observable
final class TaskListViewModel {
    @ObservationIgnored private let shelf: Shelf
    /// The incomplete tasks, live.
    let list: LiveRows<TaskRecord>
    /// The category filter; `nil` shows every category.
    private(set) var category: String?

    /// A view model over `shelf`'s tasks.
    init(shelf: Shelf) {
        self.shelf = shelf
        list = LiveRows(watching: TaskItem.self, in: ModelContext(shelf.container)) {
            try shelf.records(Self.descriptor(category: nil), TaskRecord.init)
        }
    }

    /// The Core Data app's fetch request, `isCompleted == NO` sorted by due date then priority descending, with
    /// `category == %@` added as a run-time compound when a category is chosen.
    static func descriptor(category: String?) -> FetchDescriptor<TaskItem> {
        var conditions = [FormatPredicate(format: "isCompleted == NO")]
        if let category { conditions.append(FormatPredicate(format: "category == %@", category)) }
        return FetchDescriptor(
            predicate: FormatPredicate(andPredicateWithSubpredicates: conditions),
            sortDescriptors: [
                FormatSortDescriptor(key: "dueDate"),
                FormatSortDescriptor(key: "priority", ascending: false),
            ])
    }

    /// Shows only `category` (or every category for `nil` or an empty text).
    func filter(category newCategory: String?) {
        let trimmed = newCategory?.trimmingCharacters(in: .whitespaces)
        category = (trimmed?.isEmpty ?? true) ? nil : trimmed
        let category = self.category
        let shelf = self.shelf
        list.requery { try shelf.records(Self.descriptor(category: category), TaskRecord.init) }
    }

    /// Adds "New task N", as the Core Data app's `addTask()` does (in the filtered category, if any).
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func add() throws {
        try shelf.insert(TaskItem(title: "New task \(list.rows.count + 1)", category: category ?? ""))
        list.refresh()
    }

    /// Marks `task` done (it leaves the list) or not done.
    ///
    /// - Throws: a `StrataError` when the task is gone or the store can't be written.
    func toggle(_ task: TaskRecord) throws {
        try shelf.update(task.id, as: TaskItem.self) { item in
            item.isCompleted.toggle()
            return true
        }
        list.refresh()
    }

    /// Deletes `task`.
    ///
    /// - Throws: a `StrataError` when the store can't be written.
    func delete(_ task: TaskRecord) throws {
        try shelf.delete(task.id, as: TaskItem.self)
        list.refresh()
    }
}
