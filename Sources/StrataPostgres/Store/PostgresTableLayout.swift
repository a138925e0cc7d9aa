import Strata

/// PostgreSQL's layout of an entity's tables (`PostgresTableDefinition`'s DDL), as a stored schema description
/// records it for the migration planner. A foreign-key column's definition names its constraint's target and
/// delete rule too, so a changed rule is a changed column.
struct PostgresTableLayout: StoreTableLayout {
    func definition(of entity: Schema.Entity) -> String {
        let table = PostgresTableDefinition(entity: entity)
        return ([table.createTable] + table.foreignKeys + table.joinTables + table.indexes).joined(separator: "; ")
    }

    func columnDefinitions(of entity: Schema.Entity) -> [String] {
        let table = PostgresTableDefinition(entity: entity)
        return entity.tableColumns.map { owner, index in
            let column = table.column(owner, index)
            guard let foreignKey = table.foreignKey(owner, index), let references = foreignKey.range(of: " REFERENCES ")
            else { return column }
            return column + foreignKey[references.lowerBound...]
        }
    }

    func indexStatements(of entity: Schema.Entity) -> [String] {
        PostgresTableDefinition(entity: entity).indexes
    }

    func joinTables(of entity: Schema.Entity) -> [StoredJoinTable] {
        let statements = PostgresTableDefinition(entity: entity).joinTables
        let quote = PostgreSQLDialect().quote(identifier:)
        return entity.tableEntities.flatMap { entity in
            entity.ownRelationshipIndexes.map { (entity, $0) }
        }.compactMap { entity, index in
            guard let relationship = entity.relationshipInfos[index],
                case .joinTable(let name, let owner, let target) = relationship.storage,
                owner != StoreLayout.secondColumn
            else { return nil }
            let targetSide =
                relationship.inverse.map { "\(relationship.destination.name)_\($0.name)" }
                ?? relationship.destination.name
            let create = statements.firstIndex { $0.hasPrefix("CREATE TABLE \(quote(name)) ") }
            let definition =
                create.map { statements[$0...min($0 + 1, statements.count - 1)].joined(separator: "; ") } ?? ""
            return StoredJoinTable(
                name: name, ownerColumn: owner, targetColumn: target,
                ownerSide: "\(entity.name)_\(relationship.name)", targetSide: targetSide, definition: definition)
        }
    }
}
