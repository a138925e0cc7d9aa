extension StoredJoinTable {
    /// The description of a join table an entity's table creates, whose DDL a store's layout gives as `definition`.
    package init(_ table: Schema.JoinTable, definition: String) {
        let relationship = table.relationship
        self.init(
            name: table.name, ownerColumn: table.ownerColumn, targetColumn: table.targetColumn,
            ownerSide: "\(table.entity.name)_\(relationship.name)",
            targetSide: relationship.inverse.map { "\(relationship.destination.name)_\($0.name)" }
                ?? relationship.destination.name,
            definition: definition)
    }
}
