extension StoredSchema {
    /// The description of the tables `schema` needs in an SQLite store.
    init(schema: Schema, dialect: SQLiteDialect) {
        self.init(schema: schema, layout: SQLiteTableLayout(dialect: dialect))
    }
}

extension StoredEntity {
    /// The description of the table `entity` needs in an SQLite store.
    init(entity: Schema.Entity, dialect: SQLiteDialect) {
        self.init(entity: entity, layout: SQLiteTableLayout(dialect: dialect))
    }
}

/// SQLite's layout: `TableDefinition`'s DDL.
struct SQLiteTableLayout: StoreTableLayout {
    let dialect: SQLiteDialect

    func definition(of entity: Schema.Entity) -> String {
        TableDefinition(entity: entity, dialect: dialect).statements.joined(separator: "; ")
    }

    func columnDefinitions(of entity: Schema.Entity) -> [String] {
        // The primary key and the row version are every table's (and the entity column a hierarchy's); the rest
        // are the properties'.
        Array(TableDefinition(entity: entity, dialect: dialect).columns.dropFirst(entity.tableHasEntityColumn ? 3 : 2))
    }

    func indexStatements(of entity: Schema.Entity) -> [String] {
        TableDefinition(entity: entity, dialect: dialect).indexStatements
    }

    func joinTables(of entity: Schema.Entity) -> [StoredJoinTable] {
        TableDefinition(entity: entity, dialect: dialect).joinTables
    }
}

extension TableDefinition {
    /// The join tables this entity creates, with the relationship each column stands for.
    var joinTables: [StoredJoinTable] {
        entity.tableEntities.flatMap { entity in joinTables(of: entity) }
    }

    private func joinTables(of entity: Schema.Entity) -> [StoredJoinTable] {
        entity.ownRelationshipIndexes.compactMap { index in
            guard let relationship = entity.relationshipInfos[index],
                case .joinTable(let name, let owner, let target) = relationship.storage,
                owner != StoreLayout.secondColumn
            else { return nil }
            let targetSide =
                relationship.inverse.map { "\(relationship.destination.name)_\($0.name)" }
                ?? relationship.destination.name
            let definition =
                joinTableStatements.first { $0.hasPrefix("CREATE TABLE \(dialect.quote(identifier: name)) ") } ?? ""
            return StoredJoinTable(
                name: name, ownerColumn: owner, targetColumn: target,
                ownerSide: "\(entity.name)_\(relationship.name)", targetSide: targetSide, definition: definition)
        }
    }
}
