import Foundation

/// A key press decoded from the terminal's input bytes.
enum Key: Equatable, Sendable {
    case character(Character)
    case enter, tab, backTab, backspace, delete, escape
    case up, down, left, right, home, end, pageUp, pageDown
    /// Control plus a letter, e.g. `.control("c")` for Ctrl-C.
    case control(Character)
}
