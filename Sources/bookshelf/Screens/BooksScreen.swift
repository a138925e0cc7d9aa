import Foundation

/// The books list: title, author and publisher, sorted by title, or the seed's invitation when empty.
@MainActor
struct BooksScreen {
    let model: BookListViewModel

    func lines(height: Int, width: Int) -> [StyledLine] {
        var lines = [StyledLine(" My Books", .bold), StyledLine(" a: add  Enter: edit  d: delete", .dim)]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty {
            lines += [StyledLine(), StyledLine("   \(model.emptyMessage)", .bold)]
            return lines
        }
        let titleWidth = max(10, width * 2 / 5)
        return lines + ListRows.lines(model.list, height: height - lines.count) { book in
            " " + DisplayWidth.fit(book.title, to: titleWidth) + "  " + book.author + " · Publisher " + book.publisher
        }
    }
}

/// Incomplete tasks by due date then priority, with the category filter shown.
@MainActor
struct TasksScreen {
    let model: TaskListViewModel

    func lines(height: Int) -> [StyledLine] {
        let filter = model.category.map { "category = \($0)" } ?? "all categories"
        var lines = [StyledLine(" Open tasks (\(filter))", .bold),
                     StyledLine(" a: add  Enter/space: done  f: filter  d: delete", .dim)]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty { return lines + [StyledLine(), StyledLine("   No open tasks", .dim)] }
        return lines + ListRows.lines(model.list, height: height - lines.count) { task in
            let category = task.category.isEmpty ? "" : "  #\(task.category)"
            return " ○ \(DayFormat.string(task.dueDate))  p\(task.priority)  \(task.title)\(category)"
        }
    }
}

/// The to-do list of seed 001.
@MainActor
struct TodosScreen {
    let model: TodoListViewModel

    func lines(height: Int) -> [StyledLine] {
        var lines = [StyledLine(" To-dos", .bold), StyledLine(" a: add  Enter/space: toggle  d: delete  C: clear all", .dim)]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty { return lines + [StyledLine(), StyledLine("   Nothing to do", .dim)] }
        return lines + ListRows.lines(model.list, height: height - lines.count) { todo in
            " \(todo.isComplete ? "✓" : "○") \(todo.title)"
        }
    }
}
