/// Works out how to take a store from the schema it records to a target schema: the changes, the store-neutral
/// actions that make them (each store's executor spells them in its SQL), and the checks the stored data must pass.
/// Refuses (throwing `StrataError.migrationRefused`) any change it can't make without losing or inventing data.
package struct MigrationPlanner {
    let stored: StoredSchema
    let target: Schema
    /// Whether entities the store has but the target doesn't are dropped (a migration plan's stage) or kept
    /// (an inferred migration: another container may use them).
    let dropsRemovedEntities: Bool
    let path: String
    /// How the store lays out an entity's tables (its DDL), which decides whether a table needs a change.
    let layout: any StoreTableLayout

    /// A planner from the `stored` description to `target`, in a store laid out by `layout`; `path` names it in errors.
    package init(
        stored: StoredSchema, target: Schema, dropsRemovedEntities: Bool, path: String, layout: any StoreTableLayout
    ) {
        self.stored = stored
        self.target = target
        self.dropsRemovedEntities = dropsRemovedEntities
        self.path = path
        self.layout = layout
    }

    /// The result: what changes, and the actions that change it.
    package struct Plan {
        /// Each change, as a dry run reports it.
        package var changes: [SchemaChange] = []
        /// The actions, in the order they run.
        package var actions: [MigrationAction] = []
        /// The description the store records once the actions ran.
        package var result: StoredSchema
        /// How many of `actions` create the persistent-history tables (a store written before history was
        /// recorded): a read-only open skips them rather than refusing the store.
        package var historyActionCount = 0
    }

    /// Plans the migration.
    ///
    /// - Throws: `StrataError.migrationRefused` for a change that can't be made losslessly.
    package func plan() throws -> Plan {
        let targetDescription = StoredSchema(schema: target, layout: layout)
        var plan = Plan(result: targetDescription)
        if let version = stored.history {
            if version < HistoryTables.version {
                plan.actions.append(.upgradeHistoryTables(from: version))
                plan.historyActionCount = 1
            }
        } else {
            plan.actions.append(.createHistoryTables)
            plan.historyActionCount = 1
        }
        let moves = try modelsMovedUnderABase()
        for move in moves {
            plan.changes.append(
                SchemaChange(
                    kind: .moveEntity, entity: move.source, property: nil,
                    description: "move \(move.source) and its rows into \(move.hierarchy.name)'s table"))
            plan.actions.append(.setAsideRows(move))
        }
        var joinTables = JoinTablePlanner(stored: stored)
        // The hierarchies models move into: their join tables are planned once the rows have moved.
        var movedInto: [(entity: Schema.Entity, wanted: StoredEntity)] = []
        // A subentity's columns are its hierarchy's root table's.
        for entity in target.entities where entity.parentEntity == nil {
            let wanted = StoredEntity(entity: entity, layout: layout)
            if moves.contains(where: { $0.hierarchy === entity }) {
                plan.changes.append(
                    SchemaChange(
                        kind: .addEntity, entity: entity.name, property: nil, description: "add entity \(entity.name)"))
                plan.actions.append(.createEntity(entity, joinTables: false))
                movedInto.append((entity, wanted))
                continue
            }
            guard let current = stored.entity(named: entity.name) else {
                plan.changes.append(
                    SchemaChange(
                        kind: .addEntity, entity: entity.name, property: nil, description: "add entity \(entity.name)"))
                plan.actions.append(.createEntity(entity))
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
        plan.actions += moves.map(MigrationAction.moveRows)
        if !moves.isEmpty {
            // Join tables whose rows name moved models are created or carried after the rows have moved, so their
            // foreign keys find them (PostgreSQL checks them as rows are copied).
            for (entity, wanted) in movedInto { joinTables.plan(entity, wanted: wanted, into: &plan) }
            let isJoinTableAction = { (action: MigrationAction) -> Bool in
                switch action {
                case .createJoinTable, .carryJoinTable: true
                default: false
                }
            }
            let joinTableActions = plan.actions.filter(isJoinTableAction)
            plan.actions.removeAll(where: isJoinTableAction)
            plan.actions += joinTableActions
        }
        let kept = stored.entities.filter { target.entity(named: $0.name) == nil }
        if dropsRemovedEntities {
            for entity in kept {
                plan.changes.append(
                    SchemaChange(
                        kind: .removeEntity, entity: entity.name, property: nil,
                        description: "remove entity \(entity.name) and its data"))
                plan.actions.append(.dropEntity(entity.name))
            }
        } else {
            plan.result.entities = (plan.result.entities + kept).sorted { $0.name < $1.name }
            joinTables.markKept(kept.flatMap(\.joinTables))
        }
        joinTables.dropUnclaimed(
            into: &plan,
            touching: Set(target.entities.map(\.name)).union(dropsRemovedEntities ? Set(kept.map(\.name)) : []))
        return plan
    }

    /// Plans one entity's table: where each column's values come from, what is renamed or removed, and whether
    /// more than added columns changes.
    private func planTable(
        _ entity: Schema.Entity, current: StoredEntity, wanted: StoredEntity, into plan: inout Plan
    ) throws {
        var table = TablePlanning()
        try planColumns(of: entity, current: current, wanted: wanted, into: &table, &plan)
        let removed = planRemovedColumns(of: entity, current: current, wanted: wanted, into: &table, &plan)
        planUniquenessConstraints(of: entity, current: current, wanted: wanted, into: &table, &plan)
        plan.changes += indexChanges(entity.name, from: current.indexStatements, to: wanted.indexStatements)
        if !current.hasVersionColumn {
            plan.changes.append(
                SchemaChange(
                    kind: .addProperty, entity: entity.name, property: StoreLayout.versionColumn,
                    description:
                        "add \(entity.name).\(StoreLayout.versionColumn): the row version optimistic locking checks = 0"
                ))
        }
        plan.actions += table.checks.map(MigrationAction.check)
        plan.actions.append(
            .alterTable(
                TableAlteration(
                    entity: entity, current: current, wanted: wanted, sources: table.sources,
                    renamed: table.renamedFrom, removed: removed, changesMoreThanColumns: table.rebuild)))
    }

    /// What planning one table has found so far: each wanted column's source, in the wanted order, the stored
    /// columns renamed (old name to new), the checks the stored rows must pass first, and whether more than added
    /// columns changes (the table is rebuilt or altered beyond `ADD COLUMN`).
    private struct TablePlanning {
        var sources: [TableAlteration.Source] = []
        var renamedFrom: [String: String] = [:]
        var checks: [MigrationCheck] = []
        var rebuild = false
    }

    /// Finds where each wanted column's values come from: a stored column of the same name, the stored column a
    /// property's `originalName` names (a rename), or, for a column the store doesn't have, its initial value.
    private func planColumns(
        of entity: Schema.Entity, current: StoredEntity, wanted: StoredEntity, into table: inout TablePlanning,
        _ plan: inout Plan
    ) throws {
        // A hierarchy's table holds the columns of every entity in it: each comes from its own entity's property.
        for ((owner, index), column) in zip(entity.tableColumns, wanted.columns) {
            let property = owner.persistentProperties[index]
            let originalName =
                (property.metadata as? Schema.Attribute)?.previousName
                ?? (property.metadata as? Schema.Relationship)?.previousName
            guard
                let source = current.column(named: column.name)
                    ?? originalName.flatMap({ current.column(named: $0) }).flatMap({
                        wanted.column(named: $0.name) == nil ? $0 : nil
                    })
            else {
                let (value, check) = added(column, entity: entity.name)
                table.sources.append(.value(value))
                let literal = value?.description
                if let check {
                    table.checks.append(check)
                    table.rebuild = true
                }
                plan.changes.append(
                    SchemaChange(
                        kind: .addProperty, entity: owner.name, property: column.name,
                        description: "add \(owner.name).\(column.name): \(column.shape)"
                            + (literal.map { " = \($0)" } ?? "")))
                continue
            }
            if source.name != column.name {
                table.renamedFrom[source.name] = column.name
                table.rebuild = true
                plan.changes.append(
                    SchemaChange(
                        kind: .renameProperty, entity: owner.name, property: column.name,
                        description: "rename \(owner.name).\(source.name) to \(column.name)"))
            }
            let (carriedSource, change, check) = try carried(source, to: column, entity: entity.name)
            table.sources.append(carriedSource)
            if let check { table.checks.append(check) }
            if let change { plan.changes.append(change) }
            // A change of Swift type alone (a wider integer) needs no new table.
            if carriedSource != .column(source.name) || source.definition != column.definition {
                table.rebuild = true
            }
        }
    }

    /// The stored columns no wanted column carries, each a removal; returns their names.
    private func planRemovedColumns(
        of entity: Schema.Entity, current: StoredEntity, wanted: StoredEntity, into table: inout TablePlanning,
        _ plan: inout Plan
    ) -> [String] {
        let carried = Set(table.renamedFrom.keys).union(wanted.columns.map(\.name))
        for column in current.columns where !carried.contains(column.name) {
            table.rebuild = true
            plan.changes.append(
                SchemaChange(
                    kind: .removeProperty, entity: entity.name, property: column.name,
                    description: "remove \(entity.name).\(column.name) and its values"))
        }
        return current.columns.map(\.name).filter { !carried.contains($0) }
    }

    /// The uniqueness constraints added, each with the check that no stored rows share a value, and those
    /// removed; a stored constraint counts under its columns' new names.
    private func planUniquenessConstraints(
        of entity: Schema.Entity, current: StoredEntity, wanted: StoredEntity, into table: inout TablePlanning,
        _ plan: inout Plan
    ) {
        let storedUnique = Set(current.uniquenessConstraints.map { $0.map { table.renamedFrom[$0] ?? $0 } })
        for constraint in wanted.uniquenessConstraints where !storedUnique.contains(constraint) {
            table.rebuild = true
            plan.changes.append(
                SchemaChange(
                    kind: .addUniquenessConstraint, entity: entity.name, property: constraint.joined(separator: ", "),
                    description: "add uniqueness constraint on \(entity.name) (\(constraint.joined(separator: ", ")))"))
            let shared = constraint.compactMap { name in
                wanted.columns.firstIndex { $0.name == name }.map { table.sources[$0] }
            }
            table.checks.append(
                MigrationCheck(
                    entity: entity.name, properties: constraint, condition: .noDuplicates(shared),
                    reason:
                        "a uniqueness constraint on (\(constraint.joined(separator: ", "))) is added, but stored rows share a value; "
                        + "remove the duplicates in the willMigrate of a MigrationStage.custom ending at this version"))
        }
        for constraint in storedUnique.subtracting(wanted.uniquenessConstraints).sorted(by: {
            $0.lexicographicallyPrecedes($1)
        }) {
            table.rebuild = true
            plan.changes.append(
                SchemaChange(
                    kind: .removeUniquenessConstraint, entity: entity.name,
                    property: constraint.joined(separator: ", "),
                    description:
                        "remove uniqueness constraint on \(entity.name) (\(constraint.joined(separator: ", ")))"))
        }
    }

    /// The moves of each model stored in a table of its own that the target declares as a subclass: its rows go
    /// into its new hierarchy's table, which this migration creates, keys, versions and values carried, the entity
    /// column naming the model.
    ///
    /// - Throws: `StrataError.migrationRefused` when the move can't keep every row as it is: the hierarchy's table
    ///   exists already, or another model moves into it too (keys could collide), relationships of other models
    ///   reach the rows (their foreign keys name the old table), a stored value doesn't fit its new column, or a
    ///   new required property has no initial value.
    private func modelsMovedUnderABase() throws -> [RowMove] {
        var moves: [RowMove] = []
        var hierarchiesMovedInto: Set<ObjectIdentifier> = []
        for source in stored.entities {
            guard let entity = target.entity(named: source.name), entity.parentEntity != nil else { continue }
            let root = entity.rootEntity
            let refuse = { (why: String) in
                StrataError.migrationRefused(
                    path: path, entity: source.name, property: nil,
                    reason:
                        "\(source.name) is stored in a table of its own and is now a subclass of \(root.name); "
                        + why + ". Keep \(source.name) a model of its own, or copy its models into the subclass in "
                        + "a MigrationStage.custom (under a new entity name, then delete the old)")
            }
            guard stored.entity(named: root.name) == nil,
                hierarchiesMovedInto.insert(ObjectIdentifier(root)).inserted
            else {
                throw refuse("\(root.name)'s table holds other rows already, whose keys could collide with its own")
            }
            // Relationships that reach its rows keep their keys, which the rows keep: their foreign keys are
            // pointed at the hierarchy's table, and their join tables carried over, by the actions that follow.
            let wanted = StoredEntity(entity: root, layout: layout)
            var columns: [(name: String, source: TableAlteration.Source)] = []
            for ((owner, _), column) in zip(root.tableColumns, wanted.columns) {
                // Columns of the model's siblings are NULL in its rows.
                guard entity === owner || isClass(entity.modelType, kindOf: owner.modelType) else {
                    columns.append((column.name, .value(nil)))
                    continue
                }
                if let stored = source.column(named: column.name) {
                    // The same values, into a column that may allow NULL where the old one didn't.
                    let carries =
                        stored.storage == column.storage && stored.destination == column.destination
                        && (!stored.isOptional || column.isOptional)
                        && (stored.valueType == nil || column.valueType == nil || stored.valueType == column.valueType)
                    guard carries else {
                        throw refuse(
                            "its \(column.name) is stored as \(stored.shape), the model declares \(column.shape)")
                    }
                    columns.append((column.name, .column(column.name)))
                    continue
                }
                let (value, check) = added(column, entity: source.name)
                if let check { throw refuse(check.reason) }
                columns.append((column.name, .value(value)))
            }
            moves.append(
                RowMove(
                    source: source.name, hierarchy: root, sourceHasVersionColumn: source.hasVersionColumn,
                    columns: columns,
                    indexNames: source.indexStatements.compactMap { StoredEntity.quotedIdentifiers(in: $0).first }))
        }
        return moves
    }

    /// A new column's value for existing rows (its default literal, or NULL), and the check it needs when it has neither.
    private func added(_ column: StoredColumn, entity: String) -> (StoredValue?, MigrationCheck?) {
        if let defaultValue = column.defaultValue, column.destination == nil {
            return (defaultValue.value, nil)
        }
        if column.isOptional { return (nil, nil) }
        let check = MigrationCheck(
            entity: entity, properties: [column.name], condition: .noRows,
            reason:
                "\(column.name) is added as non-optional \(column.shape) without an initial value, so stored rows would have none; "
                + "declare one (var \(column.name): \(column.shape) = …), make it optional, or set it in the didMigrate of a "
                + "MigrationStage.custom after a stage that adds it as optional")
        return (nil, check)
    }

    /// How a stored column's values carry over into `column`, the change it makes (nil: none), and any check.
    private func carried(
        _ source: StoredColumn, to column: StoredColumn, entity: String
    ) throws -> (TableAlteration.Source, SchemaChange?, MigrationCheck?) {
        let expression = TableAlteration.Source.column(source.name)
        let refuse = { (why: String) in
            StrataError.migrationRefused(
                path: path, entity: entity, property: column.name,
                reason: "stored as \(source.shape), the model declares \(column.shape); \(why)")
        }
        let stageAdvice =
            "convert the values in a MigrationStage.custom (add the new shape under a new name, copy in didMigrate, then remove the old one)"
        if source.destination != nil || column.destination != nil {
            guard source.destination == column.destination else { throw refuse(stageAdvice) }
            let change =
                source.definition == column.definition
                ? nil
                : SchemaChange(
                    kind: .changeProperty, entity: entity, property: column.name,
                    description: "change \(entity).\(column.name)'s foreign key to \(column.definition)")
            return (expression, change, nil)
        }
        guard source.storage == column.storage else { throw refuse(stageAdvice) }
        let widens =
            Self.integerWidths[source.valueType ?? ""].flatMap { from in
                Self.integerWidths[column.valueType ?? ""].map { to in
                    from.signed == to.signed ? from.bits <= to.bits : (!from.signed && to.signed && from.bits < to.bits)
                }
            } ?? false
        if let from = source.valueType, let to = column.valueType, from != to, !widens { throw refuse(stageAdvice) }
        let describe = "change \(entity).\(column.name) from \(source.shape) to \(column.shape)"
        if source.isOptional && !column.isOptional {
            if let defaultValue = column.defaultValue {
                let literal = defaultValue.value.description
                return (
                    .coalesce(source.name, defaultValue.value),
                    SchemaChange(
                        kind: .changeProperty, entity: entity, property: column.name,
                        description: describe + " (nil becomes \(literal))"),
                    nil
                )
            }
            let check = MigrationCheck(
                entity: entity, properties: [column.name], condition: .noNulls(source.name),
                reason:
                    "stored as \(source.shape), the model declares \(column.shape) without an initial value, and stored rows hold nil; "
                    + "declare one (var \(column.name): \(column.shape) = …) or replace the nils in the willMigrate of a MigrationStage.custom"
            )
            return (
                expression,
                SchemaChange(kind: .changeProperty, entity: entity, property: column.name, description: describe), check
            )
        }
        if source.isOptional != column.isOptional || source.valueType.map({ $0 != column.valueType }) == true
            || source.definition != column.definition
        {
            return (
                expression,
                SchemaChange(kind: .changeProperty, entity: entity, property: column.name, description: describe), nil
            )
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
            SchemaChange(
                kind: .removeIndex, entity: entity, property: name($0), description: "remove index \(name($0))")
        }
            + wanted.filter { !stored.contains($0) }.map {
                SchemaChange(kind: .addIndex, entity: entity, property: name($0), description: "add index \(name($0))")
            }
    }
}
