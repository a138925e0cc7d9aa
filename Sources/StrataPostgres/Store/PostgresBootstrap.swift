import Foundation
import Strata

/// Creates a new store's schema, tables and functions, or checks that an existing one holds these models. Runs in
/// one transaction under an advisory lock, so instances starting together create the store once.
struct PostgresBootstrap {
    static let metadataTable = "strata_metadata"
    static let formatVersion = "strata-postgres-1"

    let connection: PostgresConnection
    let schema: Schema
    let configuration: PostgresConfiguration
    private let dialect = PostgreSQLDialect()

    /// Every table's DDL, in creation order; recorded in the metadata to tell whether the store holds these models.
    var statements: [String] {
        let tables = schema.entities.map { PostgresTableDefinition(entity: $0) }
        return tables.map(\.createTable) + tables.flatMap(\.foreignKeys) + tables.flatMap(\.joinTables) + tables.flatMap(\.indexes)
    }

    /// Returns the store's identifier.
    func run() throws -> String {
        let namespace = dialect.quote(identifier: configuration.databaseSchema)
        let metadata = "\(namespace).\(dialect.quote(identifier: Self.metadataTable))"
        return try connection.transaction {
            if configuration.allowsSave {
                // Both halves of the key come from the schema's name, so stores in other schemas don't wait.
                try connection.query("SELECT pg_advisory_xact_lock(hashtext('strata'), hashtext($1))", [.text(configuration.databaseSchema)])
                try connection.execute("CREATE SCHEMA IF NOT EXISTS \(namespace)")
            }
            let exists = try connection.query("SELECT to_regclass($1) IS NOT NULL", [.text("\(namespace).\(dialect.quote(identifier: Self.metadataTable))")])
            if exists.text(row: 0, column: 0) == "t" {
                return try check(metadata)
            }
            let tables = try connection.query(
                "SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = $1", [.text(configuration.databaseSchema)])
            guard tables.int64(row: 0, column: 0) == 0 else {
                throw StrataError.notAStrataStore(
                    path: location, reason: "schema \(configuration.databaseSchema) holds tables but no Strata metadata")
            }
            guard configuration.allowsSave else {
                throw StrataError.storeOpenFailed(path: location, reason: "the store is empty and the configuration doesn't allow saves")
            }
            return try create(metadata)
        }
    }

    private var location: String { "\(configuration.redactedURL) (schema \(configuration.databaseSchema))" }

    private func create(_ metadata: String) throws -> String {
        for function in PostgresFunctions.definitions { try connection.execute(function) }
        try connection.execute("CREATE TABLE \(metadata) (key text PRIMARY KEY, value text NOT NULL)")
        for statement in statements { try connection.execute(statement) }
        for statement in PostgresHistoryTables.createStatements { try connection.execute(statement) }
        let identifier = UUID().uuidString
        for (key, value) in [("format", Self.formatVersion), ("identifier", identifier), ("tables", statements.joined(separator: ";\n"))] {
            try connection.query("INSERT INTO \(metadata) (key, value) VALUES ($1, $2)", [.text(key), .text(value)])
        }
        return identifier
    }

    /// Reads the metadata of an existing store: its identifier when it holds exactly these models. Migrating a
    /// PostgreSQL store is not supported yet, so other models are refused with the differing statements.
    private func check(_ metadata: String) throws -> String {
        let rows = try connection.query("SELECT key, value FROM \(metadata)", [])
        var values: [String: String] = [:]
        for row in 0..<rows.count { values[rows.text(row: row, column: 0) ?? ""] = rows.text(row: row, column: 1) }
        guard values["format"] == Self.formatVersion else {
            throw StrataError.notAStrataStore(path: location, reason: "unknown store format \(values["format"] ?? "none")")
        }
        let stored = Set((values["tables"] ?? "").components(separatedBy: ";\n"))
        let wanted = Set(statements)
        guard stored == wanted else {
            let differences = wanted.subtracting(stored).sorted().map { "missing: \($0)" }
                + stored.subtracting(wanted).sorted().map { "not in the models: \($0)" }
            throw StrataError.schemaMismatch(path: location, differences: differences)
        }
        if configuration.allowsSave {
            // Functions are replaced on every open, so a store created by an older Strata gets their current form.
            for function in PostgresFunctions.definitions { try connection.execute(function) }
            // A store created before history was recorded gets its history tables here. PostgreSQL stores have no
            // migrations yet; `CREATE TABLE IF NOT EXISTS` inside this transaction, under the bootstrap's advisory
            // lock, adds them once however many instances open the store together.
            for statement in PostgresHistoryTables.createStatements { try connection.execute(statement) }
        }
        return values["identifier"] ?? ""
    }
}
