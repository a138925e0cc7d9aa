import Foundation
import Strata
import StrataPostgres

extension StrataWorkloads {
    /// Opens a container over a fresh PostgreSQL schema `schema` of `url` and fills its `Item` table with `rows`
    /// rows through `COPY`, so that setting up doesn't dominate the run.
    func makePostgresContainer(url: URL, schema: String, rows: Int) throws -> ModelContainer {
        let configuration = PostgresConfiguration(url: url, databaseSchema: schema)
        let container = try ModelContainer(
            for: Schema([Item.self]), migrationPlan: nil, configurations: [configuration])
        if rows > 0 { try RawPostgresConnection(url: url, schema: schema).copyRows(rows) }
        return container
    }

    /// Runs `body` with a fresh context on a fresh schema holding `rows` rows, then drops the schema (after the
    /// container has closed its connections).
    func withPostgresContext(url: URL, rows: Int, _ body: (ModelContext) throws -> Sample) throws -> Sample {
        let schema = RawPostgresConnection.makeSchemaName("strata")
        defer { RawPostgresConnection.dropSchema(schema, at: url) }
        func run() throws -> Sample {
            try body(ModelContext(makePostgresContainer(url: url, schema: schema, rows: rows)))
        }
        return try run()
    }
}
