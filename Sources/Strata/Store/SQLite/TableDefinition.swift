/// The DDL of one entity's table and indexes.
struct TableDefinition {
    let entity: Schema.Entity
    let dialect: SQLiteDialect

    /// The column definitions, e.g. `"title" TEXT NOT NULL`.
    var columns: [String] {
        [dialect.quote(identifier: SelectStatement.primaryKeyColumn) + " INTEGER PRIMARY KEY"]
            + entity.attributes.map { attribute in
                let type = dialect.columnType(for: attribute.storageClass)
                return [dialect.quote(identifier: attribute.name), type, attribute.isOptional ? "" : "NOT NULL"]
                    .filter { !$0.isEmpty }.joined(separator: " ")
            }
    }

    var uniqueConstraints: [String] {
        entity.uniquenessConstraints.map { names in
            "UNIQUE (" + names.map(dialect.quote(identifier:)).joined(separator: ", ") + ")"
        }
    }

    var indexStatements: [String] {
        entity.indices.map { names in
            let indexName = ([entity.name] + names + ["index"]).joined(separator: "_")
            return "CREATE INDEX \(dialect.quote(identifier: indexName)) ON \(dialect.quote(identifier: entity.name)) ("
                + names.map(dialect.quote(identifier:)).joined(separator: ", ") + ")"
        }
    }

    var statements: [String] {
        ["CREATE TABLE \(dialect.quote(identifier: entity.name)) (" + (columns + uniqueConstraints).joined(separator: ", ") + ")"]
            + indexStatements
    }
}
