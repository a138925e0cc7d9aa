/// The rows one delete of a batch delete removes: those of an entity matching the batch's condition, or the rows
/// that refer to such rows through a foreign key whose `ON DELETE CASCADE` would remove them with their
/// destination (a `.cascade` delete rule).
///
/// A save deletes the rows a batch delete cascades to itself, before the rows they refer to, so the history and
/// the contexts learn each of them: left to the store's `ON DELETE CASCADE` they would go unnamed (and SQLite
/// checks and cascades row by row, where one statement deletes them all).
package indirect enum BatchDeleteRows {
    /// The rows of `entity` matching `condition` (all of them when `nil`).
    case matching(Schema.Entity, QueryExpression?)
    /// The rows of `entity` whose foreign key `column` names one of `rows`.
    case referring(Schema.Entity, column: String, to: BatchDeleteRows)

    /// The entity whose rows these are.
    package var entity: Schema.Entity {
        switch self {
        case .matching(let entity, _), .referring(let entity, _, _): entity
        }
    }

    /// The entity and condition the chain of foreign keys starts from.
    package var root: (entity: Schema.Entity, condition: QueryExpression?) {
        switch self {
        case .matching(let entity, let condition): (entity, condition)
        case .referring(_, _, let rows): rows.root
        }
    }

    /// The rows that `ON DELETE CASCADE` would delete with these, one chain per foreign key that cascades into
    /// their table (an entity's subentities' relationships included). An entity already on the chain is not
    /// followed again: the store's own cascade removes what a cycle reaches.
    package var cascades: [BatchDeleteRows] {
        var seen = Set<String>()
        var result: [BatchDeleteRows] = []
        for member in entity.selfAndDescendants {
            for info in member.relationshipInfos.values.sorted(by: { $0.index < $1.index }) {
                guard info.deleteRule == .cascade, case .inverseForeignKey = info.storage,
                    let inverse = info.inverse, case .foreignKey = inverse.storage,
                    inverse.foreignKeyDeleteAction == "CASCADE"
                else { continue }
                let referrer = info.destination
                guard !contains(referrer), seen.insert(referrer.name + "." + inverse.name).inserted else { continue }
                result.append(.referring(referrer, column: inverse.name, to: self))
            }
        }
        return result
    }

    /// Whether `entity`'s table is already on the chain.
    private func contains(_ other: Schema.Entity) -> Bool {
        switch self {
        case .matching(let entity, _): entity.tableName == other.tableName
        case .referring(let entity, _, let rows): entity.tableName == other.tableName || rows.contains(other)
        }
    }
}

extension SelectStatement {
    /// ` FROM "Entity" WHERE …` for `rows`: a referring chain as nested `"column" IN (SELECT "Z_PK" FROM …)`, which
    /// each engine answers through the foreign key's index.
    /// - Throws: what the writer throws for the root's condition.
    package func from(_ rows: BatchDeleteRows) throws -> SQLFragment {
        switch rows {
        case .matching(let entity, let condition):
            return try from(entity, condition: condition)
        case .referring(let entity, let column, let target):
            let keys =
                SQLFragment.identifier(column) + SQLFragment(sql: " IN (SELECT ")
                + .identifier(StoreLayout.primaryKeyColumn) + (try from(target)) + SQLFragment(sql: ")")
            return try from(entity, condition: nil, exclusion: keys)
        }
    }
}
