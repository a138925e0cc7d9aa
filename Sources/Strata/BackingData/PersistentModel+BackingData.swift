extension PersistentModel {
    /// The model's identity: temporary until its first save, permanent after.
    public var persistentModelID: PersistentIdentifier {
        persistentBackingData.identifier(entityName: String(describing: Self.self))
    }

    /// Whether the model has unsaved changes: it is newly inserted, deleted, or has changed properties.
    public var hasChanges: Bool { persistentBackingData.hasChanges }

    /// Whether the model was deleted from its context (saved or not).
    public var isDeleted: Bool { persistentBackingData.isDeleted }
}

extension PersistentModel {
    /// The model's identity, for `Identifiable` (unless the class declares its own `id`).
    public var id: PersistentIdentifier { persistentModelID }
}
