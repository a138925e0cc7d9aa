import Testing

@testable import BookshelfCore

@Suite("Display width")
struct DisplayWidthTests {
    @Test("ASCII and accented Latin take one column per character")
    func latin() {
        #expect(DisplayWidth.of("Dune") == 4)
        #expect(DisplayWidth.of("Saint-Exupéry") == 13)
        #expect(DisplayWidth.of("Saint-Exupe\u{301}ry") == 13) // decomposed é: e + combining acute
        #expect(DisplayWidth.of("Cães") == 4)
    }

    @Test("CJK, Hangul and fullwidth forms take two columns")
    func wide() {
        #expect(DisplayWidth.of("日本") == 4)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("ｱ") == 1) // halfwidth katakana stays narrow
    }

    @Test("Emoji, flags, ZWJ sequences and emoji presentation take two columns")
    func emoji() {
        #expect(DisplayWidth.of("🦓") == 2)
        #expect(DisplayWidth.of("🇵🇹") == 2)
        #expect(DisplayWidth.of("👩‍💻") == 2)
        #expect(DisplayWidth.of("❤️") == 2) // U+2764 + VS16
        #expect(DisplayWidth.of("❤") == 1) // text presentation
        #expect(DisplayWidth.of("👍🏽") == 2) // skin-tone modifier joins the cluster
    }

    @Test("Control and format characters take no columns")
    func zeroWidth() {
        #expect(DisplayWidth.of("\u{200B}") == 0)
        #expect(DisplayWidth.of(Unicode.Scalar(0x1B)) == 0)
    }

    @Test("fit pads to the width and cuts with an ellipsis, never splitting a wide character")
    func fit() {
        #expect(DisplayWidth.fit("Dune", to: 6) == "Dune  ")
        #expect(DisplayWidth.fit("Dune Messiah", to: 6) == "Dune …")
        #expect(DisplayWidth.fit("日本語の本", to: 6) == "日本… ")
        #expect(DisplayWidth.fit("日本語の本", to: 4) == "日… ")
        #expect(DisplayWidth.of(DisplayWidth.fit("日本語の本", to: 6)) == 6)
        #expect(DisplayWidth.fit("abc", to: 0) == "")
    }
}
