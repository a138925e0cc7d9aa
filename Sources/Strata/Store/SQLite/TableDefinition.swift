/// The DDL of one entity's table, its indexes and the join tables of its to-many relationships, as fragments whose
/// names the dialect quotes and whose values it writes as literals (``SQLFragment/inlined(in:)``: DDL takes no
/// bindings).
struct TableDefinition {
    let entity: Schema.Entity
    let dialect: SQLiteDialect

    /// The definition of the row-version column every entity table has (Core Data's `Z_OPT`): an insert leaves it
    /// at 0, every update of the row's attributes adds 1, and a save checks it in the same statement.
    static let versionColumnDefinition: SQLFragment =
        "\(identifier: StoreLayout.versionColumn) INTEGER NOT NULL DEFAULT 0"

    /// The entity column of a hierarchy's table: each row's entity name, the root's unless a subentity's.
    var entityColumnDefinition: SQLFragment {
        "\(identifier: StoreLayout.entityColumn) TEXT NOT NULL DEFAULT \(bind: .text(entity.rootEntity.name))"
    }

    /// The column definitions, e.g. `"title" TEXT NOT NULL`: the primary key, the row version, then one per
    /// attribute or to-one relationship.
    /// The table of a model hierarchy holds every entity's columns, after the primary key, the row version and the
    /// entity column (`Z_ENT`, the entity's name); the columns a subentity declares allow `NULL`, which the other
    /// entities' rows hold.
    var columns: [SQLFragment] {
        var system: [SQLFragment] = [
            "\(identifier: StoreLayout.primaryKeyColumn) INTEGER PRIMARY KEY", Self.versionColumnDefinition,
        ]
        if entity.tableHasEntityColumn { system.append(entityColumnDefinition) }
        return system
            + entity.tableColumns.map { owner, index in
                let property = owner.persistentProperties[index]
                var column = SQLFragment.identifier(property.name)
                if let relationship = owner.relationshipInfos[index] {
                    column.append(sql: " INTEGER")
                    if let references = relationship.foreignKeyReferences { column.append(" " + references) }
                    return column
                }
                if let type = property.attributeStorage.map(dialect.columnType(for:)), !type.isEmpty {
                    column.append(sql: " " + type)
                }
                if !property.isOptional && owner === entity { column.append(sql: " NOT NULL") }
                return column
            }
    }

    var uniqueConstraints: [SQLFragment] {
        entity.tableEntities.flatMap(\.ownUniquenessConstraints).map { names in
            "UNIQUE (\(SQLFragment.joined(names.map(SQLFragment.identifier), separator: ", ")))"
        }
    }

    /// `#Index` indexes (and one per foreign key that no `#Index` already indexes by itself, such as
    /// `#Index<Book>([\.author])`). String columns are indexed under `STRATA_SWIFT`, the collation predicates and
    /// sorts compare Strings with (Swift's own order), so SQLite can use the index for both.
    var indexStatements: [SQLFragment] {
        entity.tableEntities.flatMap(indexStatements(of:))
    }

    private func indexStatements(of entity: Schema.Entity) -> [SQLFragment] {
        entity.ownIndexedColumnSets.map { names in
            let indexName = ([entity.name] + names + ["index"]).joined(separator: "_")
            let columns = names.map { name in
                let isString =
                    entity.property(named: name).map { $0.attributeStorage == .text && $0.valueType == String.self }
                    ?? false
                return SQLFragment.identifier(name) + (isString ? SQLFragment([.collation(.swift)]) : SQLFragment())
            }
            return "CREATE INDEX \(identifier: indexName) ON \(identifier: entity.tableName) "
                + "(\(SQLFragment.joined(columns, separator: ", ")))"
        }
    }

    /// The join tables this entity's table creates (`Schema.Entity.createdJoinTables`).
    var joinTableStatements: [SQLFragment] {
        entity.createdJoinTables.map(joinTableStatement(of:))
    }

    /// A join table's `CREATE TABLE` and `CREATE INDEX`, as one text.
    func joinTableStatement(of table: Schema.JoinTable) -> SQLFragment {
        let reference = { (entity: String) -> SQLFragment in
            "INTEGER NOT NULL \(SQLFragment.references(entity, onDelete: "CASCADE"))"
        }
        let (name, owner, target) = (table.name, table.ownerColumn, table.targetColumn)
        return "CREATE TABLE \(identifier: name) (\(identifier: owner) \(reference(table.entity.tableName)), "
            + "\(identifier: target) \(reference(table.relationship.destination.tableName)), "
            + "PRIMARY KEY (\(identifier: owner), \(identifier: target))) WITHOUT ROWID; "
            + "CREATE INDEX \(identifier: name + "_target_index") ON \(identifier: name) (\(identifier: target))"
    }

    /// Nothing for a subentity, whose rows its hierarchy's root table holds.
    var statements: [SQLFragment] {
        guard entity.parentEntity == nil else { return [] }
        return statementsWithoutJoinTables + joinTableStatements
    }

    /// The table and its indexes, without the join tables it owns.
    var statementsWithoutJoinTables: [SQLFragment] {
        guard entity.parentEntity == nil else { return [] }
        return [createTable(named: entity.name)] + indexStatements
    }

    /// The `CREATE TABLE` of the entity's table under `name` (its own, or the new table of a rebuild).
    func createTable(named name: String) -> SQLFragment {
        "CREATE TABLE \(identifier: name) (\(SQLFragment.joined(columns + uniqueConstraints, separator: ", ")))"
    }
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
