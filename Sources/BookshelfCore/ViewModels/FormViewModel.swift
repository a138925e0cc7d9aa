import Foundation
import Observation

/// A form of text fields being filled in (add or edit a book, a journal entry, a to-do, a filter), with the
/// field that has the focus and the message of the last refused submit.
@MainActor
@Observable
final class FormViewModel {
    /// One labelled field.
    struct Field: Equatable {
        var label: String
        var text: String
        var isMultiline = false
    }

    /// The form's heading.
    let title: String
    /// The fields, in order.
    private(set) var fields: [Field]
    /// The index of the field being typed into.
    private(set) var focus = 0
    /// Where typing goes in the focused field, in characters from its start.
    private(set) var cursor = 0
    /// Why the last submit was refused.
    var error: String?
    @ObservationIgnored private let submitAction: @MainActor ([String]) throws -> Void

    /// A form titled `title`; `submit` receives the fields' texts and throws to refuse them.
    init(title: String, fields: [Field], submit: @escaping @MainActor ([String]) throws -> Void) {
        self.title = title
        self.fields = fields
        self.submitAction = submit
        cursor = fields.first?.text.count ?? 0
    }

    /// The focused field.
    var focusedField: Field { fields[focus] }

    /// Types `text` at the cursor.
    func type(_ text: String) {
        var characters = Array(fields[focus].text)
        characters.insert(contentsOf: text, at: cursor)
        fields[focus].text = String(characters)
        cursor += text.count
        error = nil
    }

    /// Deletes the character before the cursor.
    func deleteBackward() {
        guard cursor > 0 else { return }
        var characters = Array(fields[focus].text)
        characters.remove(at: cursor - 1)
        fields[focus].text = String(characters)
        cursor -= 1
    }

    /// Deletes the character under the cursor.
    func deleteForward() {
        var characters = Array(fields[focus].text)
        guard cursor < characters.count else { return }
        characters.remove(at: cursor)
        fields[focus].text = String(characters)
    }

    /// Moves the cursor by `offset` characters within the focused field.
    func moveCursor(by offset: Int) {
        cursor = max(0, min(cursor + offset, fields[focus].text.count))
    }

    /// Moves the cursor to the start or the end of the focused field.
    func moveCursor(toEnd: Bool) {
        cursor = toEnd ? fields[focus].text.count : 0
    }

    /// Starts a new line in a multi-line field; does nothing in a single-line one.
    func newline() {
        if fields[focus].isMultiline { type("\n") }
    }

    /// Moves the focus to the next field (wrapping), or by `offset` fields; the cursor goes to its end.
    func moveFocus(by offset: Int = 1) {
        focus = ((focus + offset) % fields.count + fields.count) % fields.count
        cursor = fields[focus].text.count
    }

    /// Hands the texts to the form's action.
    ///
    /// - Returns: whether they were accepted; otherwise `error` says why.
    @discardableResult
    func submit() -> Bool {
        do {
            try submitAction(fields.map(\.text))
            return true
        } catch {
            self.error = "\(error)"
            return false
        }
    }
}
