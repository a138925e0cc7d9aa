extension PersistentStore {
    /// Reads properties of one row, for a model's backing data (see ``ModelBackingDataStore``).
    package func readColumns(
        _ columns: [Int], ofRow key: Int64, in entity: Schema.Entity,
        _ body: (_ offset: Int, _ value: StoredValue) -> Void
    ) throws {
        let request = StoreFetch(
            entity: entity, columns: columns,
            condition: .equal(.column(StoreLayout.primaryKeyColumn), .value(.integer(key))))
        try fetch(request) { row in
            for offset in columns.indices { body(offset, row.storedValue(at: Int32(offset + 1))) }
        }
    }

    /// The keys related to one row through an inverse foreign key or a join table, for a model's backing data
    /// (see ``ModelBackingDataStore``); empty for a foreign key, which the row itself holds.
    package func relatedKeys(of key: Int64, through relationship: Schema.RelationshipInfo) throws -> [Int64] {
        switch relationship.storage {
        case .foreignKey:
            return []
        case .inverseForeignKey:
            guard let inverse = relationship.inverse else { return [] }
            var request = StoreFetch(entity: relationship.destination, columns: [])
            request.keyFilter = (inverse.name, [key])
            request.ordering = [
                QueryOrdering(expression: .column(StoreLayout.primaryKeyColumn), ascending: true, collation: .binary)
            ]
            var keys: [Int64] = []
            try fetch(request) { row in keys.append(row.int64(at: 0)) }
            return keys
        case .joinTable(let table, let ownerColumn, let targetColumn):
            return try fetchJoinRows(table: table, ownerColumn: ownerColumn, targetColumn: targetColumn, owners: [key])
                .map(\.target)
        }
    }
}
