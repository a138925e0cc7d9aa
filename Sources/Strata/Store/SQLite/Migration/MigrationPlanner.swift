/// Works out how to take a store from the schema it records to a target schema: the changes, the SQL, and the
/// checks the stored data must pass. Refuses (throwing `StrataError.migrationRefused`) any change it can't make
/// without losing or inventing data.
struct MigrationPlanner {
    let stored: StoredSchema
    let target: Schema
    /// Whether entities the store has but the target doesn't are dropped (a migration plan's stage) or kept
    /// (an inferred migration: another container may use them).
    let dropsRemovedEntities: Bool
    let path: String
    let dialect = SQLiteDialect()

    /// The result: what changes, and the actions that change it.
    struct Plan {
        var changes: [SchemaChange] = []
        var actions: [MigrationAction] = []
        /// The description the store records once the actions ran.
        var result: StoredSchema
        /// How many of `actions` create the persistent-history tables (a store written before history was
        /// recorded): a read-only open skips them rather than refusing the store.
        var historyActionCount = 0
    }

    func plan() throws -> Plan {
        let targetDescription = StoredSchema(schema: target, dialect: dialect)
        var plan = Plan(result: targetDescription)
        let historyStatements = stored.history.map { HistoryTables.upgradeStatements(from: $0, dialect: dialect) }
            ?? HistoryTables.createStatements(dialect: dialect)
        plan.actions += historyStatements.map(MigrationAction.sql)
        plan.historyActionCount = historyStatements.count
        var joinTables = JoinTablePlanner(stored: stored, dialect: dialect)
        for entity in target.entities {
            let wanted = StoredEntity(entity: entity, dialect: dialect)
            guard let current = stored.entity(named: entity.name) else {
                plan.changes.append(SchemaChange(kind: .addEntity, entity: entity.name, property: nil, description: "add entity \(entity.name)"))
                plan.actions += TableDefinition(entity: entity, dialect: dialect).statements.map(MigrationAction.sql)
                joinTables.markCreated(wanted.joinTables)
                continue
            }
            if current.matches(wanted) {
                joinTables.markKept(wanted.joinTables)
                continue
            }
            try planTable(entity, current: current, wanted: wanted, into: &plan)
            joinTables.plan(entity, wanted: wanted, into: &plan)
        }
        let kept = stored.entities.filter { target.entity(named: $0.name) == nil }
        if dropsRemovedEntities {
            for entity in kept {
                plan.changes.append(SchemaChange(kind: .removeEntity, entity: entity.name, property: nil, description: "remove entity \(entity.name) and its data"))
                plan.actions.append(.sql("DROP TABLE \(quote(entity.name))"))
            }
        } else {
            plan.result.entities = (plan.result.entities + kept).sorted { $0.name < $1.name }
            joinTables.markKept(kept.flatMap(\.joinTables))
        }
        joinTables.dropUnclaimed(into: &plan, touching: Set(target.entities.map(\.name)).union(dropsRemovedEntities ? Set(kept.map(\.name)) : []))
        return plan
    }

    /// Plans one entity's table: `ALTER TABLE … ADD COLUMN` when columns are only added, a rebuild otherwise.
    private func planTable(_ entity: Schema.Entity, current: StoredEntity, wanted: StoredEntity, into plan: inout Plan) throws {
        var expressions: [String] = []
        var addedColumns: [(column: StoredColumn, literal: String?)] = []
        var renamedFrom: [String: String] = [:]
        var rebuild = false
        var checks: [MigrationCheck] = []
        for (index, column) in zip(entity.columnPropertyIndexes, wanted.columns) {
            let property = entity.properties[index]
            let originalName = (property.metadata as? Schema.Attribute)?.originalName
                ?? (property.metadata as? Schema.Relationship)?.originalName
            guard let source = current.column(named: column.name)
                    ?? originalName.flatMap({ current.column(named: $0) }).flatMap({ wanted.column(named: $0.name) == nil ? $0 : nil }) else {
                let (expression, literal, check) = added(column, entity: entity.name)
                expressions.append(expression)
                addedColumns.append((column, literal))
                if let check {
                    checks.append(check)
                    rebuild = true
                }
                plan.changes.append(SchemaChange(
                    kind: .addProperty, entity: entity.name, property: column.name,
                    description: "add \(entity.name).\(column.name): \(column.shape)" + (literal.map { " = \($0)" } ?? "")))
                continue
            }
            if source.name != column.name {
                renamedFrom[source.name] = column.name
                rebuild = true
                plan.changes.append(SchemaChange(
                    kind: .renameProperty, entity: entity.name, property: column.name,
                    description: "rename \(entity.name).\(source.name) to \(column.name)"))
            }
            let (expression, change, check) = try carried(source, to: column, entity: entity.name)
            expressions.append(expression)
            if let check { checks.append(check) }
            if let change { plan.changes.append(change) }
            // A change of Swift type alone (a wider integer) needs no new table.
            if expression != quote(source.name) || source.definition != column.definition {
                rebuild = true
            }
        }
        let carried = Set(renamedFrom.keys).union(wanted.columns.map(\.name))
        for column in current.columns where !carried.contains(column.name) {
            rebuild = true
            plan.changes.append(SchemaChange(
                kind: .removeProperty, entity: entity.name, property: column.name,
                description: "remove \(entity.name).\(column.name) and its values"))
        }
        let storedUnique = Set(current.uniquenessConstraints.map { $0.map { renamedFrom[$0] ?? $0 } })
        for constraint in wanted.uniquenessConstraints where !storedUnique.contains(constraint) {
            rebuild = true
            plan.changes.append(SchemaChange(
                kind: .addUniquenessConstraint, entity: entity.name, property: constraint.joined(separator: ", "),
                description: "add uniqueness constraint on \(entity.name) (\(constraint.joined(separator: ", ")))"))
            let sources = constraint.compactMap { name in wanted.columns.firstIndex { $0.name == name }.map { expressions[$0] } }
            checks.append(MigrationCheck(
                entity: entity.name, properties: constraint, condition: .noDuplicates(sources),
                reason: "a uniqueness constraint on (\(constraint.joined(separator: ", "))) is added, but stored rows share a value; "
                    + "remove the duplicates in the willMigrate of a MigrationStage.custom ending at this version"))
        }
        for constraint in storedUnique.subtracting(wanted.uniquenessConstraints).sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            rebuild = true
            plan.changes.append(SchemaChange(
                kind: .removeUniquenessConstraint, entity: entity.name, property: constraint.joined(separator: ", "),
                description: "remove uniqueness constraint on \(entity.name) (\(constraint.joined(separator: ", ")))"))
        }
        plan.changes += indexChanges(entity.name, from: current.indexStatements, to: wanted.indexStatements)
        if !current.hasVersionColumn {
            plan.changes.append(SchemaChange(
                kind: .addProperty, entity: entity.name, property: SelectStatement.versionColumn,
                description: "add \(entity.name).\(SelectStatement.versionColumn): the row version optimistic locking checks = 0"))
        }
        plan.actions += checks.map(MigrationAction.check)
        if rebuild {
            plan.actions += rebuildStatements(entity, current: current, expressions: expressions).map(MigrationAction.sql)
            return
        }
        if !current.hasVersionColumn {
            plan.actions.append(.sql("ALTER TABLE \(quote(entity.name)) ADD COLUMN \(TableDefinition.versionColumnDefinition)"))
        }
        for (column, literal) in addedColumns {
            let definition = column.definition + (literal.map { " DEFAULT \($0)" } ?? "")
            plan.actions.append(.sql("ALTER TABLE \(quote(entity.name)) ADD COLUMN \(definition)"))
        }
        for statement in current.indexStatements where !wanted.indexStatements.contains(statement) {
            if let name = StoredEntity.quotedIdentifiers(in: statement).first {
                plan.actions.append(.sql("DROP INDEX \(quote(name))"))
            }
        }
        for statement in wanted.indexStatements where !current.indexStatements.contains(statement) {
            plan.actions.append(.sql(statement))
        }
    }

    /// A new column's value for existing rows (its default literal, or NULL), and the check it needs when it has neither.
    private func added(_ column: StoredColumn, entity: String) -> (String, String?, MigrationCheck?) {
        if let defaultValue = column.defaultValue, column.destination == nil {
            let literal = defaultValue.value.sqlLiteral
            return (literal, literal, nil)
        }
        if column.isOptional { return ("NULL", nil, nil) }
        let check = MigrationCheck(
            entity: entity, properties: [column.name], condition: .noRows,
            reason: "\(column.name) is added as non-optional \(column.shape) without an initial value, so stored rows would have none; "
                + "declare one (var \(column.name): \(column.shape) = …), make it optional, or set it in the didMigrate of a "
                + "MigrationStage.custom after a stage that adds it as optional")
        return ("NULL", nil, check)
    }

    /// How a stored column's values carry over into `column`, the change it makes (nil: none), and any check.
    private func carried(_ source: StoredColumn, to column: StoredColumn, entity: String) throws -> (String, SchemaChange?, MigrationCheck?) {
        let expression = quote(source.name)
        let refuse = { (why: String) in
            StrataError.migrationRefused(
                path: path, entity: entity, property: column.name,
                reason: "stored as \(source.shape), the model declares \(column.shape); \(why)")
        }
        let stageAdvice = "convert the values in a MigrationStage.custom (add the new shape under a new name, copy in didMigrate, then remove the old one)"
        if source.destination != nil || column.destination != nil {
            guard source.destination == column.destination else { throw refuse(stageAdvice) }
            let change = source.definition == column.definition ? nil : SchemaChange(
                kind: .changeProperty, entity: entity, property: column.name,
                description: "change \(entity).\(column.name)'s foreign key to \(column.definition)")
            return (expression, change, nil)
        }
        guard source.storage == column.storage else { throw refuse(stageAdvice) }
        let widens = Self.integerWidths[source.valueType ?? ""].flatMap { from in
            Self.integerWidths[column.valueType ?? ""].map { to in from.signed == to.signed ? from.bits <= to.bits : (!from.signed && to.signed && from.bits < to.bits) }
        } ?? false
        if let from = source.valueType, let to = column.valueType, from != to, !widens { throw refuse(stageAdvice) }
        let describe = "change \(entity).\(column.name) from \(source.shape) to \(column.shape)"
        if source.isOptional && !column.isOptional {
            if let defaultValue = column.defaultValue {
                let literal = defaultValue.value.sqlLiteral
                return ("coalesce(\(expression), \(literal))",
                        SchemaChange(kind: .changeProperty, entity: entity, property: column.name, description: describe + " (nil becomes \(literal))"),
                        nil)
            }
            let check = MigrationCheck(
                entity: entity, properties: [column.name], condition: .noNulls(expression),
                reason: "stored as \(source.shape), the model declares \(column.shape) without an initial value, and stored rows hold nil; "
                    + "declare one (var \(column.name): \(column.shape) = …) or replace the nils in the willMigrate of a MigrationStage.custom")
            return (expression, SchemaChange(kind: .changeProperty, entity: entity, property: column.name, description: describe), check)
        }
        if source.isOptional != column.isOptional || source.valueType.map({ $0 != column.valueType }) == true || source.definition != column.definition {
            return (expression, SchemaChange(kind: .changeProperty, entity: entity, property: column.name, description: describe), nil)
        }
        return (expression, nil, nil)
    }

    private static let integerWidths: [String: (bits: Int, signed: Bool)] = [
        "Int8": (8, true), "Int16": (16, true), "Int32": (32, true), "Int64": (64, true), "Int": (64, true),
        "UInt8": (8, false), "UInt16": (16, false), "UInt32": (32, false),
    ]

    private func indexChanges(_ entity: String, from stored: [String], to wanted: [String]) -> [SchemaChange] {
        let name = { (statement: String) in StoredEntity.quotedIdentifiers(in: statement).first ?? statement }
        return stored.filter { !wanted.contains($0) }.map {
            SchemaChange(kind: .removeIndex, entity: entity, property: name($0), description: "remove index \(name($0))")
        } + wanted.filter { !stored.contains($0) }.map {
            SchemaChange(kind: .addIndex, entity: entity, property: name($0), description: "add index \(name($0))")
        }
    }

    /// SQLite's table rebuild: a new table in the target shape filled from the old one, which it then replaces.
    private func rebuildStatements(_ entity: Schema.Entity, current: StoredEntity, expressions: [String]) -> [String] {
        let definition = TableDefinition(entity: entity, dialect: dialect)
        let table = quote(entity.name)
        let temporary = quote("strata_migrating_\(entity.name)")
        let key = quote(SelectStatement.primaryKeyColumn)
        let createTable = "CREATE TABLE \(table) ("
        let create = definition.statements[0].hasPrefix(createTable)
            ? "CREATE TABLE \(temporary) (" + definition.statements[0].dropFirst(createTable.count) : definition.statements[0]
        // Rows keep their versions (a table without them starts them at the column's default).
        let version = current.hasVersionColumn ? [quote(SelectStatement.versionColumn)] : []
        let columns = [key] + version + entity.columnPropertyIndexes.map { quote(entity.properties[$0].name) }
        return [
            create,
            "INSERT INTO \(temporary) (\(columns.joined(separator: ", "))) SELECT \(([key] + version + expressions).joined(separator: ", ")) FROM \(table)",
            "DROP TABLE \(table)",
            "ALTER TABLE \(temporary) RENAME TO \(table)",
        ] + definition.indexStatements
    }

    private func quote(_ identifier: String) -> String { dialect.quote(identifier: identifier) }
}
