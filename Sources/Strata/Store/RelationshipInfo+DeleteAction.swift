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
