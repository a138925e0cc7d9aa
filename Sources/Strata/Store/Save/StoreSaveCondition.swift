/// A statement a save runs before any of its writes, in its transaction, that must change exactly one row: when it
/// changes none, the save writes nothing and throws ``StoreSaveConditionUnmet``. How a writer makes a save apply
/// once — a sync hub advancing a device's mark only past a batch it has not applied yet — without a second
/// transaction around the save.
package struct StoreSaveCondition {
    /// The statement, rendered in the store's dialect when the save runs.
    package var statement: SQLFragment
    /// The entity whose store runs the statement (for a store made of several), and whose constraints a unique
    /// violation of the statement names.
    package var entity: Schema.Entity
    /// What the failure says when the statement changes no row.
    package var description: String

    package init(_ statement: SQLFragment, entity: Schema.Entity, description: String) {
        self.statement = statement
        self.entity = entity
        self.description = description
    }
}

/// A ``StoreSaveCondition`` changed no row: the save wrote nothing.
package struct StoreSaveConditionUnmet: Error, CustomStringConvertible {
    /// The condition's own description.
    package var description: String
}

extension SaveSequence {
    /// Runs each condition, first in the transaction; one that changes no row ends the save.
    mutating func checkConditions(_ conditions: [StoreSaveCondition]) throws {
        guard !conditions.isEmpty else { return }
        let statements = conditions.map { condition in
            let (sql, bindings) = condition.statement.render(in: executor.dialect)
            return SaveStatement(SaveSQL(sql, entity: condition.entity, returnsRows: false), .values(bindings))
        }
        try executor.run(statements.count) {
            statements[$0]
        } result: { index, result in
            guard result.affectedRows == 1 else {
                throw StoreSaveConditionUnmet(description: conditions[index].description)
            }
        }
    }
}
