import Foundation

/// How a piece of a line is drawn.
enum TextStyle: Equatable, Sendable {
    case plain, bold, dim, selected, highlighted, bar, error

    /// The SGR sequence that starts the style.
    var sgr: String {
        switch self {
        case .plain: "\u{1B}[0m"
        case .bold: "\u{1B}[0;1m"
        case .dim: "\u{1B}[0;2m"
        case .selected: "\u{1B}[0;7m"
        case .highlighted: "\u{1B}[0;30;43m"
        case .bar: "\u{1B}[0;30;46m"
        case .error: "\u{1B}[0;1;31m"
        }
    }
}
