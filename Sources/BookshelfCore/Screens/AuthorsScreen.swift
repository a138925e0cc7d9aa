import Foundation

/// Books per author, most first, with a bar for each; it follows every save of a book.
@MainActor
struct AuthorsScreen {
    let model: AuthorsViewModel

    func lines(height: Int, width: Int) -> [StyledLine] {
        var lines = [StyledLine(" Books per author", .bold), StyledLine(" totalled by the store, live", .dim)]
        if let error = model.error { return lines + [StyledLine(" \(error)", .error)] }
        if model.rows.isEmpty { return lines + [StyledLine(), StyledLine("   No books yet", .bold)] }
        let nameWidth = max(10, min(width / 3, model.rows.map { DisplayWidth.of($0.author) }.max() ?? 10))
        let most = max(model.rows.map(\.books).max() ?? 1, 1)
        let barWidth = max(1, width - nameWidth - 12)
        for row in model.rows.prefix(max(0, height - lines.count)) {
            let bar = String(repeating: "█", count: max(1, row.books * barWidth / most))
            let count = "\(row.books)"
            let padding = String(repeating: " ", count: max(0, 5 - count.count))
            lines.append(StyledLine(" " + DisplayWidth.fit(row.author, to: nameWidth) + padding + count + "  " + bar))
        }
        return lines
    }
}
