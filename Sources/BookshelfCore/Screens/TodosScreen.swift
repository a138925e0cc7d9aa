import Foundation

/// The to-do list of AppState's `ModelState` example.
@MainActor
struct TodosScreen {
    let model: TodoListViewModel

    func lines(height: Int) -> [StyledLine] {
        var lines = [
            StyledLine(" To-dos", .bold), StyledLine(" a: add  Enter/space: toggle  d: delete  C: clear all", .dim),
        ]
        lines += ListRows.errorLines(model.list)
        if model.list.rows.isEmpty { return lines + [StyledLine(), StyledLine("   Nothing to do", .dim)] }
        return lines
            + ListRows.lines(model.list, height: height - lines.count) { todo in
                " \(todo.isComplete ? "✓" : "○") \(todo.title)"
            }
    }
}
