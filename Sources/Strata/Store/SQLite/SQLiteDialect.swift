/// SQLite's spelling.
package struct SQLiteDialect: SQLDialect {
    package init() {}

    package func quote(identifier: String) -> String {
        // Names rarely hold a quote; checking the bytes first skips Foundation's slow replacement for the rest.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
            + "\""
    }

    package func placeholder(at position: Int) -> String { "?" }

    /// Infinities as out-of-range reals (SQLite reads `1e999` as infinity), NaN as text (SQLite stores no NaN).
    package func literal(nonFiniteReal real: Double) -> String {
        real.isNaN ? "'NaN'" : (real < 0 ? "-1e999" : "1e999")
    }

    package func literal(blob bytes: [UInt8]) -> String {
        "X'" + Self.hexadecimal(bytes, uppercase: true) + "'"
    }

    package func columnType(for storage: StorageClass) -> String {
        switch storage {
        case .integer: "INTEGER"
        // No declared type (no affinity), so SQLite keeps integers and the padded text of large values as bound.
        case .unsignedInteger: ""
        case .real: "REAL"
        case .decimal: "TEXT COLLATE STRATA_DECIMAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// SQLite's built-in `BINARY` for byte order; Strata's registered collations for the rest.
    package func collationName(for collation: QueryOrdering.Collation) -> String? {
        switch collation {
        case .binary: "BINARY"
        case .swift: StrataStringOrdering.swift.collationName
        case .localizedStandard: "STRATA_LOCALIZED_STANDARD"
        case .localized: "STRATA_LOCALIZED"
        case .caseInsensitive: "STRATA_CASE_INSENSITIVE"
        }
    }

    package func functionName(for function: QueryFunction) -> String {
        switch function {
        case .coalesce: "COALESCE"
        // JSON1, built into SQLite since 3.38.
        case .compositeField: "json_extract"
        case .compositeJSON: "json"
        case .compositeContains: "json_each"
        // The rest are Strata's own, registered on each connection under these names.
        default: function.definedName ?? ""
        }
    }
}
