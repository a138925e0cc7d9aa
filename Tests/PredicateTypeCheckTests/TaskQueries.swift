import Foundation
import SwiftData

/// The queries of a task app's main list, written as apps write them: one `#Predicate` each, clauses of `&&`/`||`
/// over optional chains, captured values and dates, raw-value enums, `!`, `.contains` on captured arrays and
/// `localizedStandardContains`.
///
/// This file is the compile-time guard: every overload a library adds to a `build_*` function that each `#Predicate`
/// calls multiplies the type checker's work on predicates of this size until it gives up ("the compiler is unable to
/// type-check this expression in reasonable time"). It builds with the compiler's default limits.
enum TaskQueries {
    /// One page of the list: the sidebar's filters and the date range on screen.
    static func page(
        statuses: [String], from start: Date, to end: Date, includeArchived: Bool, flaggedOnly: Bool
    ) -> Predicate<TaskItem> {
        let blocked = TaskStatus.blocked.rawValue
        return #Predicate<TaskItem> { task in
            (includeArchived || !task.isArchived)
                && (!flaggedOnly || task.isFlagged)
                && statuses.contains(task.status.rawValue)
                && task.status.rawValue != blocked
                && task.createdAt >= start
                && task.createdAt < end
                && (task.dueDate ?? end) >= start
        }
    }

    /// The search bar: the text in the title, the notes or the folder's name, among unarchived tasks of at least
    /// some priority.
    static func search(_ text: String, minimumPriority: Int) -> Predicate<TaskItem> {
        #Predicate<TaskItem> { task in
            (text.isEmpty || task.title.localizedStandardContains(text)
                || (task.notes ?? "").localizedStandardContains(text)
                || task.folder?.name.localizedStandardContains(text) == true)
                && !task.isArchived
                && task.priority >= minimumPriority
        }
    }

    /// The sidebar's folder filter: one folder by name (or every task without `folderName`), shared or not.
    static func folder(named folderName: String?, shared: Bool, minimumPriority: Int) -> Predicate<TaskItem> {
        #Predicate<TaskItem> { task in
            (folderName == nil || task.folder?.name == folderName)
                && (task.folder?.isShared ?? false) == shared
                && !task.isArchived
                && task.priority >= minimumPriority
        }
    }

    /// Tasks due within a week in an owner's folders, past the last code of the previous page.
    static func dueSoon(
        owner: String, after lastCode: String, excluding codes: [String], now: Date
    ) -> Predicate<TaskItem> {
        let weekFromNow = now.addingTimeInterval(7 * 86_400)
        return #Predicate<TaskItem> { task in
            task.folder?.owner?.name == owner
                && (task.dueDate ?? weekFromNow) < weekFromNow
                && !codes.contains(task.code)
                && task.code > lastCode
        }
    }
}
