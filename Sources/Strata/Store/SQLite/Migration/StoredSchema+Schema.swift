extension StoredSchema {
    /// The description of the tables `schema` needs, as a store records it.
    init(schema: Schema, dialect: SQLiteDialect) {
        self.version = schema.versionIdentifier
        self.entities = schema.entities.map { StoredEntity(entity: $0, dialect: dialect) }.sorted { $0.name < $1.name }
        self.history = HistoryTables.version
    }
}

extension StoredEntity {
    /// The description of the table `entity` needs.
    init(entity: Schema.Entity, dialect: SQLiteDialect) {
        let table = TableDefinition(entity: entity, dialect: dialect)
        // The primary key and the row version are every table's; the rest are the properties'.
        let definitions = table.columns.dropFirst(2)
        self.name = entity.name
        self.columns = zip(entity.columnPropertyIndexes, definitions).map { index, definition in
            let property = entity.properties[index]
            let destination = entity.relationshipInfos[index]?.destination.name
            return StoredColumn(
                name: property.name,
                storage: destination == nil ? property.attributeStorage.map { "\($0)" } : nil,
                valueType: destination == nil ? String(describing: property.valueType) : nil,
                isOptional: property.isOptional,
                defaultValue: StoredDefault(entity.defaultValues[index]),
                destination: destination,
                definition: definition)
        }
        self.uniquenessConstraints = entity.uniquenessConstraints
        self.indexStatements = table.indexStatements
        self.joinTables = table.joinTables
        self.definition = table.statements.joined(separator: "; ")
    }
}

extension TableDefinition {
    /// The join tables this entity creates, with the relationship each column stands for.
    var joinTables: [StoredJoinTable] {
        entity.relationshipInfos.keys.sorted().compactMap { index in
            guard let relationship = entity.relationshipInfos[index],
                  case .joinTable(let name, let owner, let target) = relationship.storage,
                  owner != "Z_SECOND" else { return nil }
            let targetSide = relationship.inverse.map { "\(relationship.destination.name)_\($0.name)" }
                ?? relationship.destination.name
            let definition = joinTableStatements.first { $0.hasPrefix("CREATE TABLE \(dialect.quote(identifier: name)) ") } ?? ""
            return StoredJoinTable(
                name: name, ownerColumn: owner, targetColumn: target,
                ownerSide: "\(entity.name)_\(relationship.name)", targetSide: targetSide, definition: definition)
        }
    }
}
