/// Mutates format-predicate strings the way a fuzzer does: token insertions from the grammar's vocabulary,
/// deletions, duplications, splices of two inputs, byte flips and deep nesting.
struct FormatMutator {
    /// Pieces of the format language and its hostile neighbours.
    static let vocabulary = [
        "slot", "batch", "payload", "amount", "group", "group.name", "group.slot", "tags", "tags.name", "tags.@count",
        "tags.@sum.slot", "tags.@avg.slot", "tags.@max.slot", "@count", "SELF", "$v", "$x.name", "#size",
        "==", "!=", "<", "<=", ">", ">=", "=>", "<>", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN",
        "BETWEEN", "[c]", "[cd]", "[n]", "AND", "OR", "NOT", "&&", "||", "!", "ANY", "ALL", "NONE", "SOME",
        "SUBQUERY(tags, $t, $t.name == 'a').@count", "SUBQUERY(", "FUNCTION(", "CAST(", "now()", "sum:(", "{", "}",
        "(", ")", ",", ".", "+", "-", "*", "/", "**", "0", "1", "-1", "9223372036854775807", "9223372036854775808",
        "1e308", "-0.0", "0x1F", "0b101", "0o17", "1.5", "'s'", "\"q\"", "'it''s'", "\"\\\"\"", "'\\u0000'", "'",
        "\"", "\\", "%@", "%K", "%d", "%f", "%i", "%%", "%", "%s", "%lld", "%1$@", "YES", "NO", "TRUE", "FALSE",
        "NULL", "NIL", "TRUEPREDICATE", "FALSEPREDICATE", "--", ";", "/*", "*/", "DROP TABLE Entry", "\0", "é",
        "\u{301}", "🙂", "\u{FFFF}", "Z_PK", "Z_OPT", "\"Entry\"", "[", "]", "[1]", "[FIRST]", "[LAST]", "[SIZE]",
    ]

    var random: SplitMix

    /// A mutation of `input`, sometimes spliced with `other`.
    mutating func mutate(_ input: String, other: String) -> String {
        var tokens = Self.tokens(of: input)
        for _ in 0...random.below(4) {
            switch random.below(9) {
            case 0, 1, 2:
                tokens.insert(Self.vocabulary[random.below(Self.vocabulary.count)], at: random.below(tokens.count + 1))
            case 3 where !tokens.isEmpty:
                let start = random.below(tokens.count)
                tokens.removeSubrange(start..<min(tokens.count, start + 1 + random.below(3)))
            case 4 where !tokens.isEmpty:
                let start = random.below(tokens.count)
                let piece = tokens[start..<min(tokens.count, start + 1 + random.below(6))]
                tokens.insert(contentsOf: piece, at: random.below(tokens.count + 1))
            case 5:
                let theirs = Self.tokens(of: other)
                let cut = random.below(tokens.count + 1), from = random.below(theirs.count + 1)
                tokens = Array(tokens[..<cut]) + Array(theirs[from...])
            case 6 where !tokens.isEmpty:
                let index = random.below(tokens.count)
                var bytes = Array(tokens[index].utf8)
                if !bytes.isEmpty { bytes[random.below(bytes.count)] ^= UInt8(1 << random.below(8)) }
                tokens[index] = String(decoding: bytes, as: UTF8.self)
            case 7:
                let depth = 1 + random.below(random.chance(5) ? 400 : 20)
                let open = random.chance(50) ? "(" : "NOT ("
                tokens = Array(repeating: open, count: depth) + tokens + Array(repeating: ")", count: depth)
            default:
                let count = 1 + random.below(random.chance(3) ? 3_000 : 30)
                tokens += Array(repeating: random.chance(50) ? "OR slot == 1" : "AND amount > 2", count: count)
            }
        }
        return tokens.joined(separator: random.chance(80) ? " " : "")
    }

    /// Space-separated pieces (mutations keep to the shape of words).
    static func tokens(of input: String) -> [String] {
        input.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    }

    /// Format strings to start from: valid predicates over `Entry` touching each part of the grammar.
    static let seeds = [
        "slot == 1", "batch > %d AND payload BEGINSWITH[c] %@", "group.name == %@ OR group == nil",
        "ANY tags.name IN {'a', 'b'}", "tags.@count > 2", "amount BETWEEN {1, 10}", "NOT (payload CONTAINS[cd] 'x')",
        "SUBQUERY(tags, $t, $t.name LIKE 'a*').@count > 0", "%K == %@", "payload MATCHES '[a-z]+'",
        "ALL tags.slot > 3", "NONE tags.name ==[c] 'Z'", "amount * 2 + 1 >= batch", "slot IN %@", "$v == slot",
        "group.slot < 3 AND (batch != 4 OR amount <= 5)", "TRUEPREDICATE", "payload ENDSWITH 'z' || slot == 9",
    ]
}
