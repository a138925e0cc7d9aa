import Foundation

extension PredicateFormatError {
    /// How many characters of context the excerpt keeps on each side of the caret.
    private static let excerptRadius = 40

    /// Two lines: the line of ``format`` holding ``offset`` (clipped to a window around it, with
    /// `…` where clipped) and a caret under the offending character, both indented two spaces.
    func caretExcerpt() -> String {
        let utf8 = format.utf8
        let clamped = min(max(offset, 0), utf8.count)
        var position = utf8.index(utf8.startIndex, offsetBy: clamped)
        // A UTF-8 offset lands inside a character only if the error is built by hand; round down.
        while position > format.startIndex, position.samePosition(in: format) == nil {
            position = utf8.index(before: position)
        }
        let lineStart =
            format[..<position].lastIndex(where: \.isNewline)
            .map { format.index(after: $0) } ?? format.startIndex
        let lineEnd = format[position...].firstIndex(where: \.isNewline) ?? format.endIndex
        var before = Substring(format[lineStart..<position])
        var after = Substring(format[position..<lineEnd])
        var prefix = ""
        var suffix = ""
        if before.count > Self.excerptRadius {
            before = before.suffix(Self.excerptRadius)
            prefix = "…"
        }
        if after.count > Self.excerptRadius {
            after = after.prefix(Self.excerptRadius)
            suffix = "…"
        }
        let line = prefix + before + after + suffix
        let caretColumn = prefix.count + before.count
        let printable = String(line.map { $0 == "\t" ? " " : $0 })
        return "  " + printable + "\n  " + String(repeating: " ", count: caretColumn) + "^"
    }
}
