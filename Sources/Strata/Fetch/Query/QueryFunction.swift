/// A function a query can call; each dialect spells it (SQLite: `SQLiteDialect.functionName(for:)`).
///
/// Every function gives null for a null argument.
package enum QueryFunction: Hashable, Sendable {
    /// `(haystack, needle, flags)`: 1 when `haystack` contains `needle` under the text flags (0 = exact).
    case contains
    /// `(text, prefix, flags)`: 1 when `text` starts with `prefix` under the text flags.
    case beginsWith
    /// `(haystack, needle)`: Foundation's `localizedStandardContains`, 1 or 0.
    case localizedStandardContains
    /// `(text, other)`: 1 when `other`'s Characters appear in a row in `text` (Swift's `contains`).
    case characterContains
    /// `(text, prefix)`: 1 when `text`'s Characters start with `prefix`'s (Swift's `starts(with:)`).
    case characterBeginsWith
    /// `(a, b, ordering)`: -1, 0 or 1 comparing two texts with a `StrataStringOrdering`.
    case compare
    /// `(text)`: the number of Swift `Character`s (extended grapheme clusters) in `text`.
    case characterCount
    /// `(values…)`: the first value that is not null.
    case coalesce
    /// `(a, b, min, max)`: integer arithmetic that fails the query when the result leaves `min...max`;
    /// division and remainder by zero give null.
    case checkedArithmetic(QueryExpression.ArithmeticOperator)
    /// `(a, b)`: IEEE double arithmetic as Swift computes it; NaN (in and out) is the text `'NaN'`, as stored.
    /// With `single` the result is rounded to `Float`, as Swift's `Float` arithmetic gives it.
    case floatingArithmetic(QueryExpression.ArithmeticOperator, single: Bool)
    /// `(text, flags)`: `text` folded for comparison under the text flags (1 = ignore case, 2 = ignore diacritics).
    case fold
    /// `(text, suffix, flags)`: 1 when `text` ends with `suffix` under the text flags.
    case endsWith
    /// `(text, pattern, flags)`: 1 when `text` matches the Core Data `LIKE` pattern (`*`, `?`) under the text flags.
    case like
    /// `(text, regex, flags)`: 1 when the whole of `text` matches the ICU regular expression under the text flags.
    case matches
    /// `(base, exponent)`: `base` raised to `exponent` as a real; null when the result is not a number.
    case power
    /// `(json)`: the field at the path inside a composite attribute's JSON text, as the path's scalar type;
    /// null when absent or JSON `null`.
    case compositeField(CompositeFieldPath)
    /// `(json)`: a JSON text in the canonical form composite fields of ``CompositeScalar/json`` compare in.
    case compositeJSON
    /// `(json, element)`: 1 when the array at the path inside a composite attribute's JSON text (or the array
    /// attribute itself) has an element equal to `element`, compared as the path's scalar type; 0 otherwise.
    case compositeContains(CompositeFieldPath)
}
