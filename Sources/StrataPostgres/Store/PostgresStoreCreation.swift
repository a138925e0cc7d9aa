import Strata

/// PostgreSQL's spelling of a new store (`StoreCreationPlan`), in the store's schema: the functions its queries call
/// (``PostgresFunctions``), every root entity's tables before any foreign key, join table or index (a foreign key
/// names a table created after its own), the history tables, and the functions' version in the metadata.
struct PostgresStoreCreation: StoreCreationSpelling {
    /// The PostgreSQL schema holding the store.
    let databaseSchema: String
    let dialect = PostgreSQLDialect()

    var formatVersion: String { PostgresBootstrap.formatVersion }
    var metadataTable: SQLFragment { qualified(StoreLayout.metadataTable) }
    var metadataColumns: SQLFragment { "key text PRIMARY KEY, value text NOT NULL" }
    var layout: any StoreTableLayout { PostgresTableLayout() }
    var functions: [SQLFragment] { PostgresFunctions.definitions }

    func tables(of schema: Schema) -> [SQLFragment] {
        let tables = schema.entities.filter { $0.parentEntity == nil }.map { PostgresTableDefinition(entity: $0) }
        return tables.map(\.createTable) + tables.flatMap(\.foreignKeys) + tables.flatMap(\.joinTables)
            + tables.flatMap(\.indexes)
    }

    var historyTables: [SQLFragment] { PostgresHistoryTables.createStatements }
    var storeTables: [SQLFragment] { [] }

    func metadata(for schema: Schema) -> [(String, String)] {
        [(PostgresBootstrap.functionsKey, PostgresFunctions.definitionsVersion)]
    }

    /// A table or index of the store's schema, by its qualified name.
    func qualified(_ name: String) -> SQLFragment {
        "\(identifier: databaseSchema).\(identifier: name)"
    }
}

extension PostgresConnection: StoreCreationExecutor {
    /// Runs one statement of a store's creation.
    package func execute(_ statement: StoreCreationPlan.Statement) throws {
        switch statement {
        case .definition(let sql): try execute(sql)
        case .row(let row): try query(row)
        }
    }
}
