import Foundation

/// A form: each field's label and text, the focused one marked, multi-line fields shown line by line.
@MainActor
struct FormScreen {
    let form: FormViewModel

    func lines() -> [StyledLine] {
        var lines = [
            StyledLine(" \(form.title)", .bold),
            StyledLine(
                " Tab/↑↓: field  ←→ Home End: move  Enter: save (new line in multi-line fields)  Ctrl-S: save  Esc: cancel",
                .dim),
            StyledLine(),
        ]
        for (index, field) in form.fields.enumerated() {
            let focused = index == form.focus
            let label = DisplayWidth.fit(field.label + ":", to: 11)
            for (offset, row) in rows(of: field, cursor: focused ? form.cursor : nil).enumerated() {
                let prefix = offset == 0 ? " \(focused ? "›" : " ") \(label) " : String(repeating: " ", count: 15)
                lines.append(StyledLine(spans: [(prefix, focused ? .bold : .dim)] + row))
            }
        }
        if let error = form.error { lines += [StyledLine(), StyledLine(" \(error)", .error)] }
        return lines
    }
}

extension FormScreen {
    /// The field's lines; with a cursor, the character under it (a space at a line's end) is drawn reversed.
    func rows(of field: FormViewModel.Field, cursor: Int?) -> [[(text: String, style: TextStyle)]] {
        var rows: [[(text: String, style: TextStyle)]] = []
        var start = 0
        for line in field.text.split(separator: "\n", omittingEmptySubsequences: false) {
            let end = start + line.count
            if let cursor, (start...end).contains(cursor) {
                let characters = Array(line)
                let column = cursor - start
                let under = column < characters.count ? String(characters[column]) : " "
                rows.append([
                    (String(characters[..<column]), .plain), (under, .selected),
                    (String(characters[min(column + 1, characters.count)...]), .plain),
                ])
            } else {
                rows.append([(String(line), .plain)])
            }
            start = end + 1
        }
        return rows
    }
}
