import Foundation
import Strata

/// A task of a Core Data task-and-journal app (Core Data's `Task` entity; renamed so it does not shadow Swift's `Task`).
@Model
final class TaskItem {
    var title: String
    var category: String
    var priority: Int
    var dueDate: Date
    var createdAt: Date
    var isCompleted: Bool

    init(
        title: String, category: String = "", priority: Int = 0, dueDate: Date = .now, createdAt: Date = .now,
        isCompleted: Bool = false
    ) {
        self.title = title
        self.category = category
        self.priority = priority
        self.dueDate = dueDate
        self.createdAt = createdAt
        self.isCompleted = isCompleted
    }
}
