/// The names of Strata's storage layout, the same in every store: the columns each entity table has besides its
/// attributes (Core Data's names), the join tables of to-many relationships, and the metadata table.
package enum StoreLayout {
    /// Every entity table's primary key (`INTEGER PRIMARY KEY` on SQLite, an identity `bigint` on PostgreSQL).
    package static let primaryKeyColumn = "Z_PK"
    /// Every entity table's row version, raised by each update (optimistic locking).
    package static let versionColumn = "Z_OPT"
    /// The entity of each row in the table of a model hierarchy (Core Data's `Z_ENT`): the entity's name.
    package static let entityColumn = "Z_ENT"
    /// The table holding the store's format, identifier and recorded schema.
    package static let metadataTable = "strata_metadata"
    /// The largest primary key each entity table has ever issued, on SQLite (Core Data's `Z_PRIMARYKEY.Z_MAX`): keys
    /// continue above it, so a deleted row's key is never given to another. PostgreSQL keeps it in each table's
    /// identity sequence.
    package static let primaryKeysTable = "strata_primary_keys"

    /// A join table's owner and target columns when one relationship owns it alone.
    package static let ownerColumn = "Z_OWNER"
    package static let targetColumn = "Z_TARGET"
    /// A many-to-many join table's columns: its sides in name order.
    package static let firstColumn = "Z_FIRST"
    package static let secondColumn = "Z_SECOND"

    /// The join table one relationship owns alone: an inverse-less to-many, or one of several sharing an inverse.
    package static func joinTable(entity: String, relationship: String) -> String {
        "Z_\(entity)_\(relationship)"
    }

    /// The join table of a many-to-many relationship, named by its two sides (`<Entity>_<relationship>`) in order.
    package static func joinTable(first: String, second: String) -> String {
        "Z_\(first)__\(second)"
    }
}
