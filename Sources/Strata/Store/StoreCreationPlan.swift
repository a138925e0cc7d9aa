import Foundation

/// A new store's creation, planned once for every SQL store: the metadata table first (of stores created together
/// without a lock, all but one fail there), the store's SQL functions, the models' tables, the history tables, the
/// store's own tables, then the metadata rows (the format, the identifier, the recorded schema, the store's own).
/// A store supplies its spelling of each (``StoreCreationSpelling``) and runs the statements
/// (``StoreCreationExecutor``) in the transaction that found the store empty.
package struct StoreCreationPlan {
    /// A step of a store's creation, in the order they run.
    package enum Step: CaseIterable, Sendable {
        case metadataTable
        case functions
        case tables
        case historyTables
        case storeTables
        case metadataRows
    }

    /// A statement of the plan.
    package enum Statement {
        /// DDL, its values written as the store's literals (DDL takes no bindings).
        case definition(String)
        /// A statement with its values bound: a metadata row.
        case row(SQLFragment)
    }

    /// The new store's identifier, recorded in its metadata.
    package let identifier: String
    /// Each step's statements, in the order they run.
    package let steps: [(step: Step, statements: [Statement])]

    /// Plans the creation of a store holding `schema`, recording the version of `migrationPlan`'s last schema when
    /// `schema` has none.
    package init(
        schema: Schema, migrationPlan: StoreMigrationPlan?, spelling: some StoreCreationSpelling,
        identifier: String = UUID().uuidString
    ) {
        self.identifier = identifier
        var description = StoredSchema(schema: schema, layout: spelling.layout)
        description.version = description.version ?? migrationPlan?.schemas.last?.versionIdentifier
        let rows =
            [
                ("format", spelling.formatVersion), ("identifier", identifier),
                (StoredSchema.metadataKey, description.encoded),
            ] + spelling.metadata(for: schema)
        let definitions = { (statements: [SQLFragment]) -> [Statement] in
            statements.map { .definition($0.inlined(in: spelling.dialect)) }
        }
        let metadataTable: SQLFragment =
            "CREATE TABLE \(spelling.metadataTable) (\(spelling.metadataColumns))"
        steps = [
            (.metadataTable, definitions([metadataTable])),
            (.functions, definitions(spelling.functions)),
            (.tables, definitions(spelling.tables(of: schema))),
            (.historyTables, definitions(spelling.historyTables)),
            (.storeTables, definitions(spelling.storeTables)),
            (.metadataRows, rows.map { .row(StoreMetadata.insert($0, $1, into: spelling.metadataTable)) }),
        ]
    }

    /// Runs every statement in order and returns the new store's identifier.
    package func run(on executor: some StoreCreationExecutor) throws -> String {
        for (_, statements) in steps {
            for statement in statements { try executor.execute(statement) }
        }
        return identifier
    }
}

/// What one store spells its own way when a new store is created: its dialect, its tables' DDL, and the tables,
/// functions and metadata rows only it has.
package protocol StoreCreationSpelling {
    /// The dialect the DDL is written in.
    associatedtype Dialect: SQLDialect
    var dialect: Dialect { get }
    /// The store's format, recorded under `format`.
    var formatVersion: String { get }
    /// The metadata table as the store's statements name it.
    var metadataTable: SQLFragment { get }
    /// The metadata table's column definitions, a text `key` and a text `value`.
    var metadataColumns: SQLFragment { get }
    /// The layout the recorded schema is described with.
    var layout: any StoreTableLayout { get }
    /// The SQL functions the store's queries call, created before the tables.
    var functions: [SQLFragment] { get }
    /// The DDL of the models' tables, indexes and join tables, in the order it runs.
    func tables(of schema: Schema) -> [SQLFragment]
    /// The DDL of the history tables (`HistoryTables`).
    var historyTables: [SQLFragment] { get }
    /// The DDL of the tables only this store keeps.
    var storeTables: [SQLFragment] { get }
    /// The metadata rows only this store records, after the format, identifier and schema.
    func metadata(for schema: Schema) -> [(String, String)]
}

/// Runs a store creation's statements on the store's connection.
package protocol StoreCreationExecutor {
    /// Runs one statement of the plan.
    func execute(_ statement: StoreCreationPlan.Statement) throws
}
