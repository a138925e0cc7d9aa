import Foundation

/// Compiled regular expressions for `strata_matches`, kept per connection.
///
/// Not thread-safe: it lives inside one connection, which callers already serialize.
final class StrataRegexCache {
    /// The most patterns kept before the cache starts over.
    private static let limit = 64

    private struct Key: Hashable {
        var pattern: String
        var options: StrataTextOptions
    }

    private var expressions: [Key: NSRegularExpression] = [:]

    /// Core Data `MATCHES`: whether the whole of `text` matches the ICU regular expression.
    ///
    /// `[c]` compiles the expression case-insensitively; `[d]` strips diacritics from both the
    /// text and the pattern first.
    ///
    /// - Throws: ``StrataFunctionError`` naming the pattern when it is not a valid expression.
    func matches(_ text: String, pattern: String, options: StrataTextOptions) throws(StrataFunctionError) -> Bool {
        let expression = try expression(for: Key(pattern: pattern, options: options))
        let subject =
            options.contains(.diacriticInsensitive)
            ? StrataText.fold(text, options: .diacriticInsensitive) : text
        let range = NSRange(subject.startIndex..., in: subject)
        return expression.firstMatch(in: subject, options: [], range: range) != nil
    }

    private func expression(for key: Key) throws(StrataFunctionError) -> NSRegularExpression {
        if let cached = expressions[key] {
            return cached
        }
        let expression = try Self.compile(key.pattern, options: key.options)
        if expressions.count >= Self.limit {
            expressions.removeAll()
        }
        expressions[key] = expression
        return expression
    }
}

extension StrataRegexCache {
    /// The whole-string expression `MATCHES` runs for `pattern` under `options`.
    ///
    /// - Throws: ``StrataFunctionError`` naming the pattern when it is not a valid ICU expression.
    static func compile(
        _ pattern: String, options: StrataTextOptions
    ) throws(StrataFunctionError) -> NSRegularExpression {
        let folded =
            options.contains(.diacriticInsensitive)
            ? StrataText.fold(pattern, options: .diacriticInsensitive) : pattern
        let flags: NSRegularExpression.Options = options.contains(.caseInsensitive) ? [.caseInsensitive] : []
        do {
            // Compile the pattern alone first: wrapping could turn an invalid pattern such as
            // "a)(b" into a valid one.
            _ = try NSRegularExpression(pattern: folded, options: flags)
            return try NSRegularExpression(pattern: "\\A(?:\(folded))\\z", options: flags)
        } catch {
            throw StrataFunctionError(message: "invalid regular expression for MATCHES: \(pattern)")
        }
    }
}

/// An error a Strata SQL function reports to SQLite, which fails the statement with it.
struct StrataFunctionError: Error {
    /// The text SQLite puts in the statement's error message.
    var message: String
}
