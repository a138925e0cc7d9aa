extension Schema.RelationshipInfo {
    /// The `ON DELETE` action of this to-one relationship's foreign key, which applies the inverse's delete rule to
    /// rows no context has loaded (contexts apply it to loaded models themselves); `nil` for a `.noAction` inverse,
    /// whose foreign key has no constraint. A required relationship can't be nullified: deleting its destination
    /// fails instead of leaving a row without its model.
    package var foreignKeyDeleteAction: String? {
        switch inverse?.deleteRule ?? .nullify {
        case .nullify: isOptional ? "SET NULL" : "RESTRICT"
        case .cascade: "CASCADE"
        case .deny: "RESTRICT"
        case .noAction: nil
        }
    }
}

extension Schema.RelationshipInfo {
    /// The `REFERENCES` clause of this to-one relationship's foreign key, as every store writes it: the
    /// destination's primary key, `ON DELETE` ``foreignKeyDeleteAction``; `nil` for a `.noAction` inverse.
    package var foreignKeyReferences: SQLFragment? {
        foreignKeyDeleteAction.map { SQLFragment.references(destination.tableName, onDelete: $0) }
    }
}

extension SQLFragment {
    /// `REFERENCES` the primary key of `table`, with an `ON DELETE` action (`CASCADE`, `SET NULL`, `RESTRICT`).
    package static func references(_ table: String, onDelete action: String) -> SQLFragment {
        "REFERENCES \(identifier: table) (\(identifier: StoreLayout.primaryKeyColumn)) ON DELETE \(sql: action)"
    }
}
