/// How one store lays out an entity's tables: the DDL a stored description records, from which the migration
/// planner tells whether a table must change. Each store has one (SQLite's `TableDefinition`, PostgreSQL's
/// `PostgresTableDefinition`); the planner compares descriptions made by the same layout only.
package protocol StoreTableLayout: Sendable {
    /// Every statement creating the entity's table, indexes and join tables, as one text (the entity's fingerprint).
    func definition(of entity: Schema.Entity) -> String
    /// The definition of each column of a property (attribute or to-one foreign key), in
    /// `columnPropertyIndexes` order, as the store would create it.
    func columnDefinitions(of entity: Schema.Entity) -> [String]
    /// The `CREATE INDEX` statements of the entity's table.
    func indexStatements(of entity: Schema.Entity) -> [String]
    /// The join tables the entity creates, with the relationship each column stands for.
    func joinTables(of entity: Schema.Entity) -> [StoredJoinTable]
}

extension StoredSchema {
    /// The description of the tables `schema` needs, as a store with `layout` records it.
    package init(schema: Schema, layout: any StoreTableLayout) {
        self.version = schema.versionIdentifier
        self.entities = schema.entities.filter { $0.parentEntity == nil }.map {
            StoredEntity(entity: $0, layout: layout)
        }.sorted { $0.name < $1.name }
        self.history = HistoryTables.version
    }

    /// Whether the stored tables are the ones `schema`'s models need, whatever other entities the store holds: each
    /// table is described once, by its hierarchy's root (a subclass model's columns are in its root's table).
    package func holdsTables(of schema: Schema, layout: any StoreTableLayout) -> Bool {
        schema.entities.allSatisfy { entity in
            guard entity.parentEntity == nil else { return true }
            return self.entity(named: entity.name).map { $0.matches(StoredEntity(entity: entity, layout: layout)) }
                ?? false
        }
    }
}

extension StoredEntity {
    /// The description of the table `entity` needs in a store with `layout`.
    package init(entity: Schema.Entity, layout: any StoreTableLayout) {
        self.name = entity.name
        self.columns = zip(entity.tableColumns, layout.columnDefinitions(of: entity)).map { column, definition in
            let (owner, index) = column
            let property = owner.persistentProperties[index]
            let destination = owner.relationshipInfos[index]?.destination.name
            return StoredColumn(
                name: property.name,
                storage: destination == nil ? property.attributeStorage.map { "\($0)" } : nil,
                valueType: destination == nil ? String(describing: property.valueType) : nil,
                isOptional: property.isOptional || owner !== entity,
                defaultValue: StoredDefault(owner.defaultValues[index]),
                destination: destination,
                definition: definition)
        }
        self.uniquenessConstraints = entity.uniquenessConstraints
        self.indexStatements = layout.indexStatements(of: entity)
        self.joinTables = layout.joinTables(of: entity)
        self.definition = layout.definition(of: entity)
    }
}
