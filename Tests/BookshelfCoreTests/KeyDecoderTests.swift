import Testing

@testable import BookshelfCore

@Suite("Key decoding")
struct KeyDecoderTests {
    private func keys(_ text: String) -> [Key] {
        var decoder = KeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test("Arrows in CSI and SS3 form, Home/End, Page Up/Down, Delete and Shift-Tab")
    func sequences() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB") == [.up, .down])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~") == [.home, .end, .home, .end])
        #expect(keys("\u{1B}[5~\u{1B}[6~\u{1B}[3~\u{1B}[Z") == [.pageUp, .pageDown, .delete, .backTab])
        #expect(keys("\u{1B}[1;5A") == [.up]) // Ctrl-Up reads as Up
    }

    @Test("Enter, Tab, Backspace, a lone Esc and control letters")
    func controls() {
        #expect(keys("\r\n\t\u{7F}\u{8}") == [.enter, .enter, .tab, .backspace, .backspace])
        #expect(keys("\u{1B}") == [.escape])
        #expect(keys("\u{3}\u{13}") == [.control("c"), .control("s")])
        #expect(keys("\u{1B}x") == [.escape, .character("x")])
    }

    @Test("UTF-8 text, including a character split across two reads")
    func utf8() {
        #expect(keys("aé日🦓") == [.character("a"), .character("é"), .character("日"), .character("🦓")])
        var decoder = KeyDecoder()
        let bytes = Array("日".utf8)
        #expect(decoder.feed(Array(bytes[0..<2])) == [])
        #expect(decoder.feed(Array(bytes[2...])) == [.character("日")])
    }

    @Test("An escape sequence split across reads waits for its end")
    func splitSequence() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[".utf8)) == [])
        #expect(decoder.feed(Array("A".utf8)) == [.up])
    }

    @Test("Invalid bytes are skipped")
    func invalid() {
        #expect(keys(String(decoding: [0xFF, 0x61], as: UTF8.self)).last == .character("a"))
        var decoder = KeyDecoder()
        #expect(decoder.feed([0xFF, 0x62]) == [.character("b")])
    }
}
