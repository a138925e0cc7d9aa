/// SQLite's spelling of a new store (``StoreCreationPlan``): each entity's `TableDefinition`, the history tables,
/// `strata_primary_keys` (``SQLitePrimaryKeys``), and the schema's fingerprint recorded beside its description.
struct SQLiteStoreCreation: StoreCreationSpelling {
    let dialect = SQLiteDialect()

    var formatVersion: String { StoreBootstrap.formatVersion }
    var metadataTable: SQLFragment { StoreMetadata.table }
    var metadataColumns: SQLFragment { "key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL" }
    var layout: any StoreTableLayout { SQLiteTableLayout(dialect: dialect) }
    var functions: [SQLFragment] { [] }

    func tables(of schema: Schema) -> [SQLFragment] {
        schema.entities.flatMap { TableDefinition(entity: $0, dialect: dialect).statements }
    }

    var historyTables: [SQLFragment] { HistoryTables.createStatements }
    var storeTables: [SQLFragment] { [SQLitePrimaryKeys.createStatement] }

    func metadata(for schema: Schema) -> [(String, String)] {
        [("schema", SchemaFingerprint(schema: schema, dialect: dialect).encoded)]
    }
}

extension SQLiteConnection: StoreCreationExecutor {
    /// Runs one statement of a store's creation.
    package func execute(_ statement: StoreCreationPlan.Statement) throws(SQLiteError) {
        switch statement {
        case .definition(let sql): try execute(sql)
        case .row(let row): try run(row)
        }
    }
}
