/// Plans the join tables of to-many relationships: kept when unchanged, created for new relationships, carried
/// over (rows copied column by column) when a relationship was renamed through `originalName:`, dropped when the
/// relationship is gone.
struct JoinTablePlanner {
    private var unclaimed: [String: StoredJoinTable]

    init(stored: StoredSchema) {
        self.unclaimed = Dictionary(
            stored.entities.flatMap(\.joinTables).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    mutating func markKept(_ tables: [StoredJoinTable]) {
        for table in tables { unclaimed[table.name] = nil }
    }

    mutating func markCreated(_ tables: [StoredJoinTable]) {
        for table in tables { unclaimed[table.name] = nil }
    }

    mutating func plan(_ entity: Schema.Entity, wanted: StoredEntity, into plan: inout MigrationPlanner.Plan) {
        for table in wanted.joinTables {
            if let same = unclaimed[table.name], same.definition == table.definition, same.ownerSide == table.ownerSide
            {
                unclaimed[table.name] = nil
                continue
            }
            let renamedSides = sides(of: table, in: entity)
            let found = unclaimed.values.first { old in
                renamedSides.owner.contains(old.ownerSide) && renamedSides.target.contains(old.targetSide)
                    || renamedSides.owner.contains(old.targetSide) && renamedSides.target.contains(old.ownerSide)
            }
            let property = String(table.ownerSide.dropFirst(entity.name.count + 1))
            guard let old = found else {
                plan.changes.append(
                    SchemaChange(
                        kind: .addProperty, entity: entity.name, property: property,
                        description: "add \(entity.name).\(property) (join table \(table.name))"))
                plan.actions.append(.createJoinTable(table))
                continue
            }
            unclaimed[old.name] = nil
            let ownerSource = renamedSides.owner.contains(old.ownerSide) ? old.ownerColumn : old.targetColumn
            let targetSource = ownerSource == old.ownerColumn ? old.targetColumn : old.ownerColumn
            if old.name != table.name {
                plan.changes.append(
                    SchemaChange(
                        kind: .renameProperty, entity: entity.name, property: property,
                        description: "carry \(old.name) over to \(table.name) (\(entity.name).\(property))"))
            }
            plan.actions.append(
                .carryJoinTable(from: old, to: table, ownerSource: ownerSource, targetSource: targetSource))
        }
    }

    /// Drops the stored join tables no relationship claimed, among those between `entities`.
    func dropUnclaimed(into plan: inout MigrationPlanner.Plan, touching entities: Set<String>) {
        for table in unclaimed.values.sorted(by: { $0.name < $1.name }) {
            let owner = entities.first { table.ownerSide.hasPrefix($0 + "_") }
            guard let owner else { continue }
            plan.changes.append(
                SchemaChange(
                    kind: .removeProperty, entity: owner, property: String(table.ownerSide.dropFirst(owner.count + 1)),
                    description: "remove join table \(table.name) and its rows"))
            plan.actions.append(.dropJoinTable(table.name))
        }
    }

    /// The side names a join table's columns may have had: the relationship's current names and its `originalName`s.
    private func sides(of table: StoredJoinTable, in entity: Schema.Entity) -> (owner: Set<String>, target: Set<String>)
    {
        var owner: Set<String> = [table.ownerSide]
        var target: Set<String> = [table.targetSide]
        for (_, relationship) in entity.relationshipInfos where "\(entity.name)_\(relationship.name)" == table.ownerSide
        {
            if let original = (entity.persistentProperties[relationship.index].metadata as? Schema.Relationship)?
                .previousName
            {
                owner.insert("\(entity.name)_\(original)")
            }
            if let inverse = relationship.inverse,
                let original =
                    (relationship.destination.persistentProperties[inverse.index].metadata as? Schema.Relationship)?
                    .previousName
            {
                target.insert("\(relationship.destination.name)_\(original)")
            }
        }
        return (owner, target)
    }
}
