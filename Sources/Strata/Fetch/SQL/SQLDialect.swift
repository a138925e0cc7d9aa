import Foundation

/// How one database engine spells identifiers, placeholders, column types and collations.
package protocol SQLDialect: Sendable {
    func quote(identifier: String) -> String
    /// The placeholder for the binding at a 1-based position.
    func placeholder(at position: Int) -> String
    func columnType(for storage: StorageClass) -> String
    /// The name a `COLLATE` clause gives the collation; `nil` where the engine has none (the query writer spells
    /// that ordering otherwise, or leaves it to the column).
    func collationName(for collation: QueryOrdering.Collation) -> String?
    /// The name of a query function in this engine.
    func functionName(for function: QueryFunction) -> String
    /// A NaN or an infinity written as a literal (SQL has no standard spelling of them).
    func literal(nonFiniteReal real: Double) -> String
    /// Bytes written as a literal.
    func literal(blob bytes: [UInt8]) -> String
}

extension SQLDialect {
    /// A value written into SQL text as a literal, for statements that take no bindings (a column's `DEFAULT`,
    /// the rest of DDL; see ``SQLFragment/inlined(in:)``): standard SQL's for `NULL`, numbers and text, the
    /// dialect's own for the rest.
    package func literal(_ value: StoredValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): real.isFinite ? "\(real)" : literal(nonFiniteReal: real)
        case .text(let text): "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): literal(blob: bytes)
        }
    }

    /// `bytes` as hexadecimal digits, two per byte.
    package static func hexadecimal(_ bytes: [UInt8], uppercase: Bool) -> String {
        let digits = Array(uppercase ? "0123456789ABCDEF" : "0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
