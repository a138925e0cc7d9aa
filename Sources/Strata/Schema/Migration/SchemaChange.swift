/// One change a migration makes to a store's schema, as a dry run (`ModelContainer.migrationSteps(for:migrationPlan:configurations:)`)
/// reports it.
public struct SchemaChange: Sendable, Hashable, CustomStringConvertible {
    /// What kind of change it is.
    public enum Kind: String, Sendable, Hashable {
        /// A new entity: its table is created.
        case addEntity
        /// An entity the models no longer have: its table and its data are dropped.
        case removeEntity
        /// A new attribute or relationship.
        case addProperty
        /// A property the model no longer has: its stored values are dropped.
        case removeProperty
        /// A property renamed through `originalName:`; its values are carried over.
        case renameProperty
        /// A property whose shape changed (optionality, integer width, foreign key action).
        case changeProperty
        /// A new `.unique` / `#Unique` constraint.
        case addUniquenessConstraint
        /// A removed uniqueness constraint.
        case removeUniquenessConstraint
        /// A new `#Index` (or foreign-key index).
        case addIndex
        /// A removed index.
        case removeIndex
        /// A model moved under a base class: its rows move into its hierarchy's table.
        case moveEntity
    }

    /// What kind of change it is.
    public let kind: Kind
    /// The entity the change applies to.
    public let entity: String
    /// The property, constraint or index the change applies to, if any.
    public let property: String?
    /// A sentence describing the change, e.g. `add Trip.rating: Int = 0`.
    public let description: String
}
