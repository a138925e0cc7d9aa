import Foundation
import Testing

@testable import BookshelfCore

@Suite("Frame diff")
struct FrameDiffTests {
    private let first = [StyledLine("title", .bold), StyledLine("Dune"), StyledLine("Kindred")]

    @Test("The first frame is written whole; then only rows that changed")
    func changedRowsOnly() {
        var diff = FrameDiff()
        let output = diff.update(to: first, width: 20)
        #expect(output.contains("\u{1B}[2J"))
        #expect(output.contains("\u{1B}[1;1H") && output.contains("\u{1B}[3;1H"))

        var next = first
        next[2] = StyledLine("Kindred", .selected)
        #expect(diff.changedRows(in: next, width: 20) == [2])
        let second = diff.update(to: next, width: 20)
        #expect(!second.contains("\u{1B}[2J"))
        #expect(second.contains("\u{1B}[3;1H"))
        #expect(!second.contains("\u{1B}[1;1H") && !second.contains("\u{1B}[2;1H"))
        #expect(diff.update(to: next, width: 20).isEmpty)
    }

    @Test("A resize or an invalidation redraws everything")
    func fullRedraw() {
        var diff = FrameDiff()
        _ = diff.update(to: first, width: 20)
        #expect(diff.changedRows(in: first, width: 30) == [0, 1, 2])
        #expect(diff.changedRows(in: Array(first.prefix(2)), width: 20) == [0, 1])
        diff.invalidate()
        #expect(diff.update(to: first, width: 20).contains("\u{1B}[2J"))
    }

    @Test("A rendered row is exactly the terminal's width, wide characters included")
    func renderedWidth() {
        let line = StyledLine(spans: [(" 日本 ", .bold), ("Saint-Exupéry 🦓 and a long tail", .plain)])
        let text = line.rendered(width: 20).replacingOccurrences(
            of: "\u{1B}\\[[0-9;]*m", with: "",
            options: .regularExpression)
        #expect(DisplayWidth.of(text) == 20)
        #expect(text.hasSuffix("…"))
    }
}
