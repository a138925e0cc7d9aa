import Foundation
import SwiftData

/// Where a task sits in its workflow, stored by raw value as SwiftData stores enums.
enum TaskStatus: String, Codable, CaseIterable {
    case inbox, planned, active, blocked, done
}

/// A folder of tasks, optional on every task, as apps model "no folder".
@Model final class TaskFolder {
    var name: String
    var isShared: Bool
    var owner: TaskOwner?

    init(name: String, isShared: Bool = false, owner: TaskOwner? = nil) {
        self.name = name
        self.isShared = isShared
        self.owner = owner
    }
}

/// Whoever owns a folder: the second link of `$0.folder?.owner?.name`.
@Model final class TaskOwner {
    var name: String

    init(name: String) { self.name = name }
}

/// A to-do item with the property mix of a real app's main list: text, dates (one optional), a raw-value enum,
/// numbers, flags and an optional folder.
@Model final class TaskItem {
    var code: String
    var title: String
    var notes: String?
    var status: TaskStatus
    var priority: Int
    var estimate: Double?
    var isFlagged: Bool
    var isArchived: Bool
    var createdAt: Date
    var dueDate: Date?
    var folder: TaskFolder?

    init(
        code: String, title: String, notes: String? = nil, status: TaskStatus = .inbox, priority: Int = 0,
        estimate: Double? = nil, isFlagged: Bool = false, isArchived: Bool = false, createdAt: Date,
        dueDate: Date? = nil, folder: TaskFolder? = nil
    ) {
        self.code = code
        self.title = title
        self.notes = notes
        self.status = status
        self.priority = priority
        self.estimate = estimate
        self.isFlagged = isFlagged
        self.isArchived = isArchived
        self.createdAt = createdAt
        self.dueDate = dueDate
        self.folder = folder
    }
}
