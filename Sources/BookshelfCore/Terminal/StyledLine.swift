import Foundation

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
