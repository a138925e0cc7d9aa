import Foundation
import StrataPostgres

/// Reading a store's PostgreSQL schema behind Strata's back, as another program would.
extension PostgresTestServer {
    /// The first column of each row `sql` returns, with `$1` bound to `databaseSchema`.
    package static func rows(_ sql: String, databaseSchema: String) throws -> [String] {
        let connection = try PostgresConnection(conninfo: try requiredURL().absoluteString)
        let result = try connection.query(sql, sql.contains("$1") ? [.text(databaseSchema)] : [])
        return (0..<result.count).map { result.text(row: $0, column: 0) ?? "" }
    }

    /// What the schema `databaseSchema` holds: its tables' columns, constraints, indexes and every row.
    package static func snapshot(databaseSchema: String) throws -> String {
        var parts = try rows(
            """
            SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable FROM information_schema.columns
            WHERE table_schema = $1 ORDER BY table_name, ordinal_position
            """, databaseSchema: databaseSchema)
        parts += try rows(
            "SELECT conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = to_regnamespace($1) ORDER BY conname",
            databaseSchema: databaseSchema)
        parts += try rows(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = $1 ORDER BY indexname", databaseSchema: databaseSchema)
        for table in try rows(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename", databaseSchema: databaseSchema)
        {
            let quoted = "\"\(databaseSchema)\".\"\(table)\""
            parts += try rows(
                "SELECT '\(table): ' || coalesce(string_agg(t::text, ' | ' ORDER BY t::text), '') FROM \(quoted) t",
                databaseSchema: databaseSchema)
        }
        return parts.joined(separator: "\n")
    }
}
