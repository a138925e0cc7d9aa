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

/// One screen row: styled pieces of text, drawn left to right and cut or padded to the terminal's width.
struct StyledLine: Equatable, Sendable {
    /// The pieces, in order.
    var spans: [(text: String, style: TextStyle)]
    /// The style of the padding after the last piece.
    var fill: TextStyle

    /// A row of one piece; the padding takes its style.
    init(_ text: String = "", _ style: TextStyle = .plain) {
        spans = [(text, style)]
        fill = style
    }

    /// A row of several pieces.
    init(spans: [(text: String, style: TextStyle)], fill: TextStyle = .plain) {
        self.spans = spans
        self.fill = fill
    }

    static func == (lhs: StyledLine, rhs: StyledLine) -> Bool {
        lhs.fill == rhs.fill && lhs.spans.count == rhs.spans.count
            && zip(lhs.spans, rhs.spans).allSatisfy { $0.text == $1.text && $0.style == $1.style }
    }

    /// The row as terminal output exactly `width` columns wide.
    func rendered(width: Int) -> String {
        var output = ""
        var remaining = width
        for span in spans where remaining > 0 {
            let columns = min(DisplayWidth.of(span.text), remaining)
            let fitted = DisplayWidth.fit(span.text, to: columns)
            output += span.style.sgr + fitted
            remaining -= DisplayWidth.of(fitted)
        }
        if remaining > 0 { output += fill.sgr + String(repeating: " ", count: remaining) }
        return output + TextStyle.plain.sgr
    }
}

/// Keeps the frame on screen and writes only the rows that differ from it.
struct FrameDiff {
    private var previous: [StyledLine] = []
    private var width = 0

    /// Forgets the frame on screen, so the next `update` writes every row (after a resize).
    mutating func invalidate() {
        previous = []
    }

    /// The output that turns the frame on screen into `frame`, `width` columns wide; empty when nothing changed.
    mutating func update(to frame: [StyledLine], width: Int) -> String {
        var output = ""
        let full = width != self.width || frame.count != previous.count
        if full { output += "\u{1B}[0m\u{1B}[2J" }
        for (row, line) in frame.enumerated() where full || previous[row] != line {
            output += "\u{1B}[\(row + 1);1H" + line.rendered(width: width)
        }
        previous = frame
        self.width = width
        return output
    }

    /// The rows `update(to:width:)` would rewrite, for tests.
    func changedRows(in frame: [StyledLine], width: Int) -> [Int] {
        guard width == self.width, frame.count == previous.count else { return Array(frame.indices) }
        return frame.indices.filter { previous[$0] != frame[$0] }
    }
}
