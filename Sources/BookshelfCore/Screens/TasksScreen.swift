import Foundation

/// Incomplete tasks by due date then priority, with the category filter shown.
@MainActor
struct TasksScreen {
    let model: TaskListViewModel

    func lines(height: Int) -> [StyledLine] {
        let filter = model.category.map { "category = \($0)" } ?? "all categories"
        var lines = [
            StyledLine(" Open tasks (\(filter))", .bold),
            StyledLine(" a: add  Enter/space: done  f: filter  d: delete", .dim),
        ]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty { return lines + [StyledLine(), StyledLine("   No open tasks", .dim)] }
        return lines
            + ListRows.lines(model.list, height: height - lines.count) { task in
                let category = task.category.isEmpty ? "" : "  #\(task.category)"
                return " ○ \(DayFormat.string(task.dueDate))  p\(task.priority)  \(task.title)\(category)"
            }
    }
}
