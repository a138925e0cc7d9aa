import Strata

/// PostgreSQL's spelling: `$1` placeholders, native column types, and the Strata functions the bootstrap creates
/// (``PostgresFunctions``).
package struct PostgreSQLDialect: SQLDialect {
    package init() {}

    package func quote(identifier: String) -> String {
        // Names rarely hold a quote: checking the bytes first skips splitting and joining for the rest.
        guard identifier.utf8.contains(UInt8(ascii: "\"")) else {
            // Written into one string sized up front: every fetch quotes its table and columns.
            var quoted = "\""
            quoted.reserveCapacity(identifier.utf8.count + 2)
            quoted.append(identifier)
            quoted.append("\"")
            return quoted
        }
        return "\"" + identifier.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
            + "\""
    }

    package func placeholder(at position: Int) -> String { "$" + String(position) }

    /// Special reals by their names, which PostgreSQL reads as `double precision`.
    package func literal(nonFiniteReal real: Double) -> String {
        real.isNaN ? "'NaN'" : (real < 0 ? "'-Infinity'" : "'Infinity'")
    }

    /// `bytea`'s hex format.
    package func literal(blob bytes: [UInt8]) -> String {
        "'\\x" + Self.hexadecimal(bytes, uppercase: false) + "'::bytea"
    }

    /// Native types: `Date` is a `.real` (seconds since 2001 as a double), kept as `double precision` because
    /// `timestamptz` holds microseconds and would round sub-microsecond dates; `UUID` and `Data` are `.blob`
    /// (`bytea`, byte order as on SQLite); `Codable` values are JSON `.text` (`text`, not `jsonb`, which reorders
    /// keys and rewrites numbers, so the value would not read back exactly). Text is `COLLATE "C"`: byte order,
    /// which is Unicode scalar order in UTF-8.
    package func columnType(for storage: StorageClass) -> String {
        switch storage {
        case .integer: "bigint"
        case .unsignedInteger: "numeric(20,0)"
        case .real: "double precision"
        case .decimal: "numeric"
        case .text: "text COLLATE \"C\""
        case .blob: "bytea"
        }
    }

    /// Only byte order has a PostgreSQL collation (`C`); Swift's order is spelled by ``PostgresQueryWriter`` as the
    /// `strata_swift` key, and the locale-dependent orderings have no exact equivalent yet.
    package func collationName(for collation: QueryOrdering.Collation) -> String? {
        switch collation {
        case .binary, .swift: "\"C\""
        case .localizedStandard, .localized, .caseInsensitive: nil
        }
    }

    package func functionName(for function: QueryFunction) -> String {
        switch function {
        case .coalesce: "COALESCE"
        case .compositeField: "jsonb_extract_path_text"
        case .compositeJSON: "jsonb"
        case .compositeContains: "jsonb_array_elements_text"
        // The rest are Strata's own, created in the store's schema under these names (``PostgresFunctions``).
        default: function.definedName ?? ""
        }
    }
}
