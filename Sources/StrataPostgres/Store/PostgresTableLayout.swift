import Strata

/// PostgreSQL's layout of an entity's tables (`PostgresTableDefinition`'s DDL), as a stored schema description
/// records it for the migration planner. A foreign-key column's definition names its constraint's target and
/// delete rule too, so a changed rule is a changed column.
struct PostgresTableLayout: StoreTableLayout {
    private let dialect = PostgreSQLDialect()

    func definition(of entity: Schema.Entity) -> String {
        let table = PostgresTableDefinition(entity: entity)
        return ([table.createTable] + table.foreignKeys + table.joinTables + table.indexes).map {
            $0.inlined(in: dialect)
        }.joined(separator: "; ")
    }

    func columnDefinitions(of entity: Schema.Entity) -> [String] {
        let table = PostgresTableDefinition(entity: entity)
        return entity.tableColumns.map { owner, index in
            let column = table.column(owner, index)
            let references = owner.relationshipInfos[index]?.foreignKeyReferences
            return (references.map { column + " " + $0 } ?? column).inlined(in: dialect)
        }
    }

    func indexStatements(of entity: Schema.Entity) -> [String] {
        PostgresTableDefinition(entity: entity).indexes.map { $0.inlined(in: dialect) }
    }

    func joinTables(of entity: Schema.Entity) -> [StoredJoinTable] {
        let table = PostgresTableDefinition(entity: entity)
        return entity.createdJoinTables.map {
            StoredJoinTable(
                $0,
                definition: table.joinTableStatements(of: $0).map { $0.inlined(in: dialect) }.joined(separator: "; "))
        }
    }
}
