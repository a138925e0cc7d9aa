// The model's `PersistentIdentifier`: permanent once it has a row, temporary (made once, on first request) before.
extension ModelBackingData {
    private var temporaryIdentifier: PersistentIdentifier? {
        get { sideState?.temporaryIdentifier }
        set { ensuredSideState.temporaryIdentifier = newValue }
    }
    /// The temporary identifier the model was given before its first save, if anyone asked for one.
    package var issuedTemporaryIdentifier: PersistentIdentifier? { sideState?.temporaryIdentifier }
    /// Gives a model that has no row the temporary identifier it stands for.
    package func adoptTemporaryIdentifier(_ identifier: PersistentIdentifier) {
        temporaryIdentifier = identifier
    }

    /// The model's identifier; `entityName` (costly: it prints a type) is only asked for when no entity is known.
    package func identifier(entityName: @autoclosure () -> String) -> PersistentIdentifier {
        if let primaryKey {
            return PersistentIdentifier(
                entityName: entity?.name ?? entityName(),
                storeIdentifier: entity.flatMap { store?.storeIdentifier(for: $0) } ?? store?.identifier,
                key: .permanent(primaryKey))
        }
        if let temporaryIdentifier { return temporaryIdentifier }
        let identifier = PersistentIdentifier.temporary(entityName: entity?.name ?? entityName())
        temporaryIdentifier = identifier
        return identifier
    }
}
