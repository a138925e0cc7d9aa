import Foundation
import StrataTestSupport

@testable import Strata
@testable import StrataPostgres

/// What suites need of a store of either kind: opening it with other models (or a migration plan), seeding it,
/// writing to it behind Strata's back, and a snapshot of what it holds to show a refused migration changed nothing.
extension TestStore {
    /// The configuration of this store.
    func configuration(allowsSave: Bool = true) throws -> any DataStoreConfiguration & Sendable {
        try kind.configuration(fileURL: file.url, databaseSchema: databaseSchema, allowsSave: allowsSave)
    }

    /// A container over the store for `schema`, migrating through `migrationPlan`.
    func container(_ schema: Schema, migrationPlan: (any SchemaMigrationPlan.Type)?) throws -> ModelContainer {
        try ModelContainer(for: schema, migrationPlan: migrationPlan, configurations: [try configuration()])
    }

    /// A context over the store opened with `types` (migrating it).
    func reopen(_ types: any PersistentModel.Type...) throws -> ModelContext {
        ModelContext(try container(Schema(types)))
    }

    /// Opens the store with `types`, inserting what `seed` makes and saving.
    func seed(_ types: any PersistentModel.Type..., seed: (ModelContext) throws -> Void) throws {
        let context = ModelContext(try container(Schema(types)))
        try seed(context)
        try context.save()
    }

    /// What the store holds: the file's bytes; for PostgreSQL its tables' columns, constraints, indexes, the
    /// recorded description and every row.
    func snapshot() throws -> String {
        switch kind {
        case .sqlite:
            return file.bytes().base64EncodedString()
        case .postgres:
            return try PostgresTestServer.snapshot(databaseSchema: databaseSchema)
        }
    }

    /// Whether the store has a table (or index) named `name`.
    func hasTable(_ name: String) throws -> Bool {
        switch kind {
        case .sqlite:
            let connection = try SQLiteConnection(location: .file(file.url.path), readOnly: true)
            return try !connection.query("SELECT 1 FROM sqlite_master WHERE name = ?", [.text(name)]).isEmpty
        case .postgres:
            return try postgresRows("SELECT to_regclass(quote_ident($1) || '.' || quote_ident('\(name)'))::text") != [
                ""
            ]
        }
    }

    /// The names of the columns of `table`.
    func columns(of table: String) throws -> [String] {
        switch kind {
        case .sqlite:
            let connection = try SQLiteConnection(location: .file(file.url.path), readOnly: true)
            return try connection.query("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { row in
                if case .text(let name)? = row.first { name } else { nil }
            }
        case .postgres:
            return try postgresRows(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = '\(table)' ORDER BY ordinal_position"
            )
        }
    }

    /// Runs `sql` on the store's tables directly, as another program would.
    func execute(_ sql: String) throws {
        switch kind {
        case .sqlite:
            try SQLiteConnection(location: .file(file.url.path)).execute(sql)
        case .postgres:
            let url = try PostgresTestServer.requiredURL()
            try PostgresConnection(conninfo: url.absoluteString, settings: ["SET search_path TO \"\(databaseSchema)\""])
                .execute(sql)
        }
    }

    /// The first column, as text, of each row `sql` returns, read from the store's tables directly as another program
    /// would (NULL reads as ""; cast other values to text in `sql`).
    func texts(_ sql: String) throws -> [String] {
        switch kind {
        case .sqlite:
            return try SQLiteConnection(location: .file(file.url.path), readOnly: true).query(sql, []).map { row in
                if case .text(let text)? = row.first { text } else { "" }
            }
        case .postgres:
            let url = try PostgresTestServer.requiredURL()
            let connection = try PostgresConnection(
                conninfo: url.absoluteString, settings: ["SET search_path TO \"\(databaseSchema)\""])
            let result = try connection.query(sql, [])
            return (0..<result.count).map { result.text(row: $0, column: 0) ?? "" }
        }
    }

    /// The first column of each row `sql` returns, with `$1` bound to the store's PostgreSQL schema.
    func postgresRows(_ sql: String) throws -> [String] {
        try PostgresTestServer.rows(sql, databaseSchema: databaseSchema)
    }
}
