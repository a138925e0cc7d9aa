import Foundation

/// The books list: title, author and publisher, sorted by title, or the SwiftData app's invitation when empty.
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
        return lines
            + ListRows.lines(model.list, height: height - lines.count) { book in
                " " + DisplayWidth.fit(book.title, to: titleWidth) + "  " + book.author + " · Publisher "
                    + book.publisher
            }
    }
}
