import Foundation

/// One lexical token of a format string.
struct FormatToken: Sendable, Equatable {
    /// What sort of token this is; ``text`` carries its payload.
    enum Kind: Sendable, Equatable {
        /// A bare word: a key or a reserved word (the parser decides, case-insensitively).
        case word
        /// `#word`: a key spelled like a reserved word. ``text`` excludes the `#`.
        case escapedWord
        /// `@word`: a collection operator. ``text`` excludes the `@`.
        case atWord
        /// `$word`: a variable. ``text`` excludes the `$`.
        case variable
        /// A quoted string. ``text`` is the unescaped content.
        case string
        /// A number literal, without sign. ``text`` is the source spelling.
        case number
        /// A `%` specifier. ``text`` is the specifier without `%`, e.g. `@`, `K`, `ld`.
        case specifier
        /// Punctuation or an operator. ``text`` is normalised: `=` → `==`, `<>` → `!=`,
        /// `=<` → `<=`, `=>` → `>=`.
        case symbol
        /// The end of the input.
        case end
    }

    /// What sort of token this is.
    let kind: Kind
    /// The payload, see ``Kind``.
    let text: String
    /// The UTF-8 offset of the token's first byte.
    let offset: Int
    /// The token's length in UTF-8 bytes.
    let length: Int
    /// The reserved word a ``Kind/word`` token spells (matched once, ignoring case).
    let keyword: FormatKeyword?

    /// Creates a token.
    init(kind: Kind, text: String, offset: Int, length: Int, keyword: FormatKeyword? = nil) {
        self.kind = kind
        self.text = text
        self.offset = offset
        self.length = length
        self.keyword = keyword
    }

    /// Whether this is the symbol `symbol`.
    func isSymbol(_ symbol: String) -> Bool {
        kind == .symbol && text == symbol
    }

    /// Whether this is a bare word equal to `keyword`, ignoring case.
    func isKeyword(_ keyword: FormatKeyword) -> Bool {
        self.keyword == keyword
    }
}
