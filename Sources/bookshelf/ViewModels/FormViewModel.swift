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
    /// Why the last submit was refused.
    var error: String?
    @ObservationIgnored private let submitAction: @MainActor ([String]) throws -> Void

    /// A form titled `title`; `submit` receives the fields' texts and throws to refuse them.
    init(title: String, fields: [Field], submit: @escaping @MainActor ([String]) throws -> Void) {
        self.title = title
        self.fields = fields
        self.submitAction = submit
    }

    /// The focused field.
    var focusedField: Field { fields[focus] }

    /// Types `text` into the focused field.
    func type(_ text: String) {
        fields[focus].text += text
        error = nil
    }

    /// Deletes the last character of the focused field.
    func deleteBackward() {
        if !fields[focus].text.isEmpty { fields[focus].text.removeLast() }
    }

    /// Starts a new line in a multi-line field; does nothing in a single-line one.
    func newline() {
        if fields[focus].isMultiline { fields[focus].text += "\n" }
    }

    /// Moves the focus to the next field (wrapping), or by `offset` fields.
    func moveFocus(by offset: Int = 1) {
        focus = ((focus + offset) % fields.count + fields.count) % fields.count
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
