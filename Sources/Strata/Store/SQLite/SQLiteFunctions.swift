import CSQLite
import Foundation

/// The SQL functions and collations Strata registers on every connection.
///
/// Every function returns `NULL` when any argument is `NULL`. Text flags are
/// ``StrataTextOptions`` raw values: 1 = case-insensitive `[c]`, 2 = diacritic-insensitive `[d]`.
///
/// | SQL | Result |
/// |-----|--------|
/// | `strata_fold(text, flags)` | `text` folded for comparison |
/// | `strata_contains(haystack, needle, flags)` | 1 or 0 |
/// | `strata_beginswith(text, prefix, flags)` | 1 or 0 |
/// | `strata_endswith(text, suffix, flags)` | 1 or 0 |
/// | `strata_like(text, pattern, flags)` | Core Data `LIKE` (`*`, `?`), 1 or 0 |
/// | `strata_matches(text, regex, flags)` | Core Data `MATCHES` (whole string, ICU), 1 or 0 |
/// | `strata_localized_standard_contains(haystack, needle)` | 1 or 0 |
/// | `strata_compare(a, b, ordering)` | -1, 0 or 1 (``StrataStringOrdering`` raw value) |
/// | `strata_decimal_add/sub/mul/div(a, b)` | decimal text, `NULL` for non-numbers or ÷ 0 |
/// | `strata_key_listed(list, key)` | 1 when `key` is in `list`, a blob of sorted keys, else 0 |
/// | `strata_note_key(notes, key)` | 1, noting `key` in `notes` (bound by Strata only) |
///
/// Collations: `STRATA_LOCALIZED_STANDARD`, `STRATA_LOCALIZED`, `STRATA_CASE_INSENSITIVE`
/// and `STRATA_DECIMAL` (decimal text ordered by value).
package enum SQLiteFunctions {
    /// The collation ordering decimal text by value.
    package static let decimalCollation = "STRATA_DECIMAL"

    /// Registers every Strata function and collation on a raw connection.
    ///
    /// - Throws: ``SQLiteError`` when SQLite refuses a registration.
    static func register(on handle: OpaquePointer) throws(SQLiteError) {
        try registerTextFunctions(on: handle)
        try registerOrderings(on: handle)
        try registerDecimalFunctions(on: handle)
        try registerPredicateFunctions(on: handle)
        try registerAggregateFunctions(on: handle)
        try registerKeyFunctions(on: handle)
        try registerKeyNoteFunction(on: handle)
    }

    private static func registerTextFunctions(on handle: OpaquePointer) throws(SQLiteError) {
        try define(StrataSQLFunction.fold, argumentCount: 2, on: handle) { arguments throws(StrataFunctionError) in
            .text(StrataText.fold(arguments.text(0), options: arguments.options(1)))
        }
        try define(StrataSQLFunction.contains, argumentCount: 3, on: handle) { arguments throws(StrataFunctionError) in
            .bool(StrataText.contains(arguments.text(0), arguments.text(1), options: arguments.options(2)))
        }
        try define(StrataSQLFunction.beginsWith, argumentCount: 3, on: handle) {
            arguments throws(StrataFunctionError) in
            .bool(StrataText.begins(arguments.text(0), with: arguments.text(1), options: arguments.options(2)))
        }
        try define(StrataSQLFunction.endsWith, argumentCount: 3, on: handle) { arguments throws(StrataFunctionError) in
            .bool(StrataText.ends(arguments.text(0), with: arguments.text(1), options: arguments.options(2)))
        }
        try define(StrataSQLFunction.like, argumentCount: 3, on: handle) { arguments throws(StrataFunctionError) in
            .bool(StrataText.like(arguments.text(0), arguments.text(1), options: arguments.options(2)))
        }
        let regexes = StrataRegexCache()
        try define(StrataSQLFunction.matches, argumentCount: 3, on: handle) { arguments throws(StrataFunctionError) in
            .bool(try regexes.matches(arguments.text(0), pattern: arguments.text(1), options: arguments.options(2)))
        }
        try define(StrataSQLFunction.localizedStandardContains, argumentCount: 2, on: handle) {
            arguments throws(StrataFunctionError) in
            .bool(StrataText.localizedStandardContains(arguments.text(0), arguments.text(1)))
        }
    }

    private static func registerOrderings(on handle: OpaquePointer) throws(SQLiteError) {
        try define(StrataSQLFunction.compare, argumentCount: 3, on: handle) { arguments throws(StrataFunctionError) in
            let mode = arguments.int64(2)
            guard let ordering = StrataStringOrdering(rawValue: mode) else {
                throw StrataFunctionError(message: "\(StrataSQLFunction.compare): unknown ordering \(mode)")
            }
            return .integer(
                Int64(StrataText.compare(arguments.text(0), arguments.text(1), ordering: ordering).rawValue))
        }
        for ordering in StrataStringOrdering.allCases {
            guard let name = ordering.collationName else { continue }
            try defineCollation(name, on: handle) { left, right in
                StrataText.compare(left, right, ordering: ordering)
            }
        }
        try defineCollation(decimalCollation, on: handle, StrataText.compareDecimalText)
    }

    private static func registerDecimalFunctions(on handle: OpaquePointer) throws(SQLiteError) {
        let operations: [(String, (Decimal, Decimal) -> Decimal?)] = [
            ("strata_decimal_add", { $0 + $1 }),
            ("strata_decimal_sub", { $0 - $1 }),
            ("strata_decimal_mul", { $0 * $1 }),
            ("strata_decimal_div", { $1.isZero ? nil : $0 / $1 }),
        ]
        for (name, operation) in operations {
            try define(name, argumentCount: 2, on: handle) { arguments throws(StrataFunctionError) in
                guard let left = StrataText.decimal(arguments.text(0)),
                    let right = StrataText.decimal(arguments.text(1)),
                    let result = operation(left, right), !result.isNaN
                else { return .null }
                return .text(StrataText.decimalText(result))
            }
        }
    }
}

extension StoredValue {
    /// SQLite's boolean: 1 for true, 0 for false.
    fileprivate static func bool(_ value: Bool) -> StoredValue {
        .integer(value ? 1 : 0)
    }
}
