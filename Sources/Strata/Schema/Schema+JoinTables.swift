extension Schema {
    /// A join table an entity's table creates: the relationship it stores and its columns (see
    /// ``Schema/Entity/createdJoinTables``).
    package struct JoinTable {
        /// The entity declaring the relationship: the table's entity or, for a hierarchy's table, one of its
        /// subentities.
        package let entity: Entity
        /// The relationship the table stores.
        package let relationship: RelationshipInfo
        /// The table's name.
        package let name: String
        /// The column holding the key of `entity`'s model.
        package let ownerColumn: String
        /// The column holding the key of the destination's model.
        package let targetColumn: String
    }
}

extension Schema.Entity {
    /// The join tables the entity's table creates, in declaration order: those of its relationships and of the
    /// subentities stored in its table. A many-to-many's join table is created by the side whose column is
    /// `Z_FIRST`, a to-many without an inverse's by its owner.
    package var createdJoinTables: [Schema.JoinTable] {
        tableEntities.flatMap { entity in
            entity.ownRelationshipIndexes.compactMap { index -> Schema.JoinTable? in
                guard let relationship = entity.relationshipInfos[index],
                    case .joinTable(let name, let owner, let target) = relationship.storage,
                    owner != StoreLayout.secondColumn
                else { return nil }
                return Schema.JoinTable(
                    entity: entity, relationship: relationship, name: name, ownerColumn: owner, targetColumn: target)
            }
        }
    }
}
