extension StoredSchema {
    /// The description of the tables `schema` needs in an SQLite store.
    init(schema: Schema, dialect: SQLiteDialect) {
        self.init(schema: schema, layout: SQLiteTableLayout(dialect: dialect))
    }
}

/// SQLite's layout: `TableDefinition`'s DDL.
struct SQLiteTableLayout: StoreTableLayout {
    let dialect: SQLiteDialect

    func definition(of entity: Schema.Entity) -> String {
        TableDefinition(entity: entity, dialect: dialect).statements.map { $0.inlined(in: dialect) }
            .joined(separator: "; ")
    }

    func columnDefinitions(of entity: Schema.Entity) -> [String] {
        // The primary key and the row version are every table's (and the entity column a hierarchy's); the rest
        // are the properties'.
        TableDefinition(entity: entity, dialect: dialect).columns.dropFirst(entity.tableHasEntityColumn ? 3 : 2).map {
            $0.inlined(in: dialect)
        }
    }

    func indexStatements(of entity: Schema.Entity) -> [String] {
        TableDefinition(entity: entity, dialect: dialect).indexStatements.map { $0.inlined(in: dialect) }
    }

    func joinTables(of entity: Schema.Entity) -> [StoredJoinTable] {
        let table = TableDefinition(entity: entity, dialect: dialect)
        return entity.createdJoinTables.map {
            StoredJoinTable($0, definition: table.joinTableStatement(of: $0).inlined(in: dialect))
        }
    }
}
