import Foundation

/// The Foundation-backed string semantics behind Strata's SQL functions and collations.
///
/// The SQL functions call these, so a query in SQLite gives the same answer as the same
/// comparison in Swift. They are exposed for in-memory evaluation and tests.
package enum StrataText {
    /// `text` folded for comparison under `options` (lowercased and/or stripped of diacritics).
    ///
    /// ```swift
    /// StrataText.fold("ÉCOLE", options: .caseInsensitive) // "école"
    /// ```
    package static func fold(_ text: String, options: StrataTextOptions) -> String {
        options.isEmpty ? text : text.folding(options: options.compareOptions, locale: nil)
    }

    /// Whether `haystack` contains `needle` under `options`; an empty needle is always contained.
    package static func contains(_ haystack: String, _ needle: String, options: StrataTextOptions) -> Bool {
        needle.isEmpty || haystack.range(of: needle, options: options.compareOptions) != nil
    }

    /// Whether `text` starts with `prefix` under `options`; an empty prefix always matches.
    package static func begins(_ text: String, with prefix: String, options: StrataTextOptions) -> Bool {
        prefix.isEmpty || text.range(of: prefix, options: options.compareOptions.union(.anchored)) != nil
    }

    /// Whether `text` ends with `suffix` under `options`; an empty suffix always matches.
    package static func ends(_ text: String, with suffix: String, options: StrataTextOptions) -> Bool {
        suffix.isEmpty
            || text.range(of: suffix, options: options.compareOptions.union([.anchored, .backwards])) != nil
    }

    /// Foundation's `localizedStandardContains` (an empty needle is *not* contained there).
    package static func localizedStandardContains(_ haystack: String, _ needle: String) -> Bool {
        haystack.localizedStandardContains(needle)
    }

    /// Compares two strings with one of Strata's orderings.
    package static func compare(_ left: String, _ right: String, ordering: StrataStringOrdering) -> ComparisonResult {
        switch ordering {
        case .localizedStandard:
            return left.localizedStandardCompare(right)
        case .localized:
            return left.localizedCompare(right)
        case .caseInsensitive:
            return left.caseInsensitiveCompare(right)
        case .lexical:
            return left.compare(right)
        case .swift:
            return swiftOrder(left, right)
        }
    }

    /// Core Data `LIKE`: `*` matches any run of characters, `?` exactly one character, and the
    /// pattern must match the whole text. A backslash makes the next pattern character literal.
    ///
    /// ```swift
    /// StrataText.like("Café au lait", "caf? *", options: [.caseInsensitive]) // true
    /// ```
    package static func like(_ text: String, _ pattern: String, options: StrataTextOptions) -> Bool {
        let characters = Array(fold(text, options: options))
        let tokens = likeTokens(fold(pattern, options: options))
        return wildcardMatch(characters, tokens)
    }

    /// One element of a parsed `LIKE` pattern.
    private enum LikeToken: Equatable {
        case anyRun
        case anyOne
        case literal(Character)
    }

    private static func likeTokens(_ pattern: String) -> [LikeToken] {
        var tokens: [LikeToken] = []
        var escaping = false
        for character in pattern {
            if escaping {
                tokens.append(.literal(character))
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "*" {
                // Consecutive stars match the same as one.
                if tokens.last != .anyRun {
                    tokens.append(.anyRun)
                }
            } else if character == "?" {
                tokens.append(.anyOne)
            } else {
                tokens.append(.literal(character))
            }
        }
        if escaping {
            tokens.append(.literal("\\"))
        }
        return tokens
    }

    /// Greedy wildcard matching that backtracks only to the most recent `*`: O(n·m) worst case.
    private static func wildcardMatch(_ text: [Character], _ pattern: [LikeToken]) -> Bool {
        var textIndex = 0
        var patternIndex = 0
        var lastStar: (pattern: Int, text: Int)?
        while textIndex < text.count {
            if patternIndex < pattern.count {
                switch pattern[patternIndex] {
                case .anyRun:
                    lastStar = (patternIndex, textIndex)
                    patternIndex += 1
                    continue
                case .anyOne:
                    textIndex += 1
                    patternIndex += 1
                    continue
                case .literal(let expected) where expected == text[textIndex]:
                    textIndex += 1
                    patternIndex += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let star = lastStar else { return false }
            // Let the last `*` swallow one more character and retry from there.
            lastStar = (star.pattern, star.text + 1)
            patternIndex = star.pattern + 1
            textIndex = star.text + 1
        }
        return pattern[patternIndex...].allSatisfy { $0 == .anyRun }
    }
}
