/// The DDL of one entity's table, its indexes and the join tables of its to-many relationships.
struct TableDefinition {
    let entity: Schema.Entity
    let dialect: SQLiteDialect

    /// The definition of the row-version column every entity table has (Core Data's `Z_OPT`): an insert leaves it
    /// at 0, every update of the row's attributes adds 1, and a save checks it in the same statement.
    static let versionColumnDefinition = "\"\(StoreLayout.versionColumn)\" INTEGER NOT NULL DEFAULT 0"

    /// The column definitions, e.g. `"title" TEXT NOT NULL`: the primary key, the row version, then one per
    /// attribute or to-one relationship.
    /// The table of a model hierarchy holds every entity's columns, after the primary key, the row version and the
    /// entity column (`Z_ENT`, the entity's name); the columns a subentity declares allow `NULL`, which the other
    /// entities' rows hold.
    /// The entity column of a hierarchy's table: each row's entity name, the root's unless a subentity's.
    var entityColumnDefinition: String {
        "\(quote(StoreLayout.entityColumn)) TEXT NOT NULL DEFAULT '\(entity.rootEntity.name)'"
    }

    var columns: [String] {
        var system = [quote(StoreLayout.primaryKeyColumn) + " INTEGER PRIMARY KEY", Self.versionColumnDefinition]
        if entity.tableHasEntityColumn { system.append(entityColumnDefinition) }
        return system
            + entity.tableColumns.map { owner, index in
                let property = owner.persistentProperties[index]
                if let relationship = owner.relationshipInfos[index] {
                    return "\(quote(property.name)) INTEGER" + foreignKeyClause(relationship)
                }
                let type = property.attributeStorage.map(dialect.columnType(for:)) ?? ""
                let isNullable = property.isOptional || owner !== entity
                return [quote(property.name), type, isNullable ? "" : "NOT NULL"]
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
    }

    /// `REFERENCES` for a to-one relationship: deleting the destination applies the inverse's delete rule to rows
    /// no context has loaded (contexts apply it to loaded models themselves).
    private func foreignKeyClause(_ relationship: Schema.RelationshipInfo) -> String {
        guard let action = relationship.foreignKeyDeleteAction else { return "" }
        return
            " REFERENCES \(quote(relationship.destination.tableName)) (\(quote(StoreLayout.primaryKeyColumn))) ON DELETE \(action)"
    }

    var uniqueConstraints: [String] {
        entity.tableEntities.flatMap(\.ownUniquenessConstraints).map { names in
            "UNIQUE (" + names.map(quote).joined(separator: ", ") + ")"
        }
    }

    /// `#Index` indexes (and one per foreign key that no `#Index` already indexes by itself, such as
    /// `#Index<Book>([\.author])`). String columns are indexed under `STRATA_SWIFT`, the collation predicates and
    /// sorts compare Strings with (Swift's own order), so SQLite can use the index for both.
    var indexStatements: [String] {
        entity.tableEntities.flatMap(indexStatements(of:))
    }

    private func indexStatements(of entity: Schema.Entity) -> [String] {
        entity.ownIndexedColumnSets.map { names in
            let indexName = ([entity.name] + names + ["index"]).joined(separator: "_")
            let columns = names.map { name in
                let isString =
                    entity.property(named: name).map { $0.attributeStorage == .text && $0.valueType == String.self }
                    ?? false
                return quote(name)
                    + (isString ? " COLLATE \(StrataStringOrdering.swift.collationName ?? "BINARY")" : "")
            }
            return "CREATE INDEX \(quote(indexName)) ON \(quote(entity.tableName)) (" + columns.joined(separator: ", ")
                + ")"
        }
    }

    /// The join tables this entity's table creates (`Schema.Entity.createdJoinTables`).
    var joinTableStatements: [String] {
        entity.createdJoinTables.map(joinTableStatement(of:))
    }

    /// A join table's `CREATE TABLE` and `CREATE INDEX`, as one text.
    func joinTableStatement(of table: Schema.JoinTable) -> String {
        let reference = { (entity: String) in
            "INTEGER NOT NULL REFERENCES \(quote(entity)) (\(quote(StoreLayout.primaryKeyColumn))) ON DELETE CASCADE"
        }
        let (name, owner, target) = (table.name, table.ownerColumn, table.targetColumn)
        return "CREATE TABLE \(quote(name)) (\(quote(owner)) \(reference(table.entity.tableName)), "
            + "\(quote(target)) \(reference(table.relationship.destination.tableName)), PRIMARY KEY (\(quote(owner)), \(quote(target)))) WITHOUT ROWID; "
            + "CREATE INDEX \(quote(name + "_target_index")) ON \(quote(name)) (\(quote(target)))"
    }

    /// Nothing for a subentity, whose rows its hierarchy's root table holds.
    var statements: [String] {
        guard entity.parentEntity == nil else { return [] }
        return statementsWithoutJoinTables + joinTableStatements
    }

    /// The table and its indexes, without the join tables it owns.
    var statementsWithoutJoinTables: [String] {
        guard entity.parentEntity == nil else { return [] }
        return ["CREATE TABLE \(quote(entity.name)) (" + (columns + uniqueConstraints).joined(separator: ", ") + ")"]
            + indexStatements
    }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}

extension AnyPersistentProperty {
    /// The storage class of an attribute; `nil` for relationships.
    var attributeStorage: StorageClass? {
        if case .attribute(let storage) = kind { return storage }
        return nil
    }
}

extension Schema.Entity {
    /// The column sets the entity indexes beyond its superentity's (each index is created once, on the table).
    package var ownIndexedColumnSets: [[String]] {
        let inherited = Set(parentEntity?.indexedColumnSets ?? [])
        return indexedColumnSets.filter { !inherited.contains($0) }
    }

    /// The column sets every store indexes: each `#Index`, then each to-one foreign key no `#Index` covers alone.
    package var indexedColumnSets: [[String]] {
        let foreignKeys = relationshipInfos.values.filter { !$0.isToMany }.map { [$0.name] }
        var seen = Set<[String]>()
        return (indices + foreignKeys.sorted { $0[0] < $1[0] }).filter { seen.insert($0).inserted }
    }
}
