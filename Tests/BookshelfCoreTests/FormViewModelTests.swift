import Testing

@testable import BookshelfCore

@MainActor
@Suite("Forms")
struct FormViewModelTests {
    private func form(submitted: @escaping @MainActor ([String]) throws -> Void = { _ in }) -> FormViewModel {
        FormViewModel(
            title: "Edit book",
            fields: [
                FormViewModel.Field(label: "Title", text: "Dune"),
                FormViewModel.Field(label: "Summary", text: "", isMultiline: true),
            ],
            submit: submitted)
    }

    @Test("Typing goes in at the cursor, which starts at the end of the field")
    func cursorEditing() {
        let form = form()
        #expect(form.cursor == 4)
        form.moveCursor(toEnd: false)
        form.type("The ")
        #expect(form.fields[0].text == "The Dune")
        form.moveCursor(by: 2)
        form.deleteBackward()
        form.deleteForward()
        #expect(form.fields[0].text == "The De")
        form.moveCursor(by: 99)
        form.type("é")
        #expect(form.fields[0].text == "The Deé")
        form.newline()
        #expect(form.fields[0].text == "The Deé") // single-line fields take no newline
    }

    @Test("Multi-line fields take newlines; the screen draws the character under the cursor reversed")
    func multiline() {
        let form = form()
        form.moveFocus()
        #expect(form.focusedField.label == "Summary")
        form.type("Spice.")
        form.newline()
        form.type("Sand.")
        #expect(form.fields[1].text == "Spice.\nSand.")
        form.moveCursor(by: -5)
        let rows = FormScreen(form: form).rows(of: form.fields[1], cursor: form.cursor)
        #expect(rows.count == 2)
        #expect(rows[1].map(\.text) == ["", "S", "and."])
        #expect(rows[1][1].style == .selected)
        #expect(rows[0].map(\.text) == ["Spice."])
        form.moveFocus(by: -1)
        #expect(form.focusedField.label == "Title" && form.cursor == 4)
    }

    @Test("A refused submit keeps the form and says why")
    func refusedSubmit() {
        let form = form { texts in
            if texts[1].isEmpty { throw CommandError.missingField("summary") }
        }
        #expect(form.submit() == false)
        #expect(form.error == "missing required field: summary")
        form.moveFocus()
        form.type("x")
        #expect(form.error == nil)
        #expect(form.submit())
    }
}
