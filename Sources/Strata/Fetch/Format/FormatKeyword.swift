import Foundation

/// The reserved words of the format language. Reserved words are case-insensitive; a key spelled
/// like one must be escaped with `#` (`#size == 3`).
enum FormatKeyword: String, Sendable, CaseIterable {
    case and = "AND", or = "OR", not = "NOT", `in` = "IN"
    case like = "LIKE", matches = "MATCHES", contains = "CONTAINS"
    case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", between = "BETWEEN"
    case any = "ANY", some = "SOME", all = "ALL", none = "NONE"
    case null = "NULL", `nil` = "NIL", `self` = "SELF"
    case `true` = "TRUE", `false` = "FALSE", yes = "YES", no = "NO"
    case truePredicate = "TRUEPREDICATE", falsePredicate = "FALSEPREDICATE"
    case subquery = "SUBQUERY", cast = "CAST"
    // Reserved by Core Data but not supported by Strata: using one bare is an error.
    case first = "FIRST", last = "LAST", size = "SIZE", anyKey = "ANYKEY", fetch = "FETCH"
    case caseInsensitive = "CASEINSENSITIVE", ci = "CI", function = "FUNCTION"

    /// The keyword a bare word spells, ignoring case, or `nil` for an ordinary key.
    init?(word: String) {
        guard word.utf8.count <= 15 else { return nil }
        self.init(rawValue: word.uppercased())
    }

    /// Whether `word` must be written `#word` to be read as a key.
    static func isReserved(_ word: String) -> Bool {
        FormatKeyword(word: word) != nil
    }
}
