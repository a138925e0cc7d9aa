import Foundation

/// How one database engine spells identifiers, placeholders, column types and collations.
package protocol SQLDialect: Sendable {
    func quote(identifier: String) -> String
    /// The placeholder for the binding at a 1-based position.
    func placeholder(at position: Int) -> String
    func columnType(for storage: StorageClass) -> String
    func collationName(for collation: QueryOrdering.Collation) -> String?
    /// The name of a query function in this engine.
    func functionName(for function: QueryFunction) -> String
}
