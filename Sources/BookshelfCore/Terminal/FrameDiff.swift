import Foundation

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
