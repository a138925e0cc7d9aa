/// What other contexts of a container saved that one context hasn't merged into its registered models yet.
///
/// It names rows, not values: merging reads the rows again (see `ModelContext+MergeSavedChanges.swift`). Past
/// ``keyLimit`` keys it stops naming rows and keeps only their entities, so a context that stays idle while others
/// save millions of rows holds a few names, not their keys.
struct UnmergedChanges: Sendable {
    /// The most primary keys kept; beyond it, entities are kept without their keys.
    static let keyLimit = 20_000

    /// By entity name, the rows saved: the registered models to read again.
    private(set) var changedKeys: [String: Set<Int64>] = [:]
    /// Entities with more changed rows than are kept: every registered model of theirs is read again.
    private(set) var entitiesWithUnnamedRows: Set<String> = []
    /// Every entity with an inserted, updated or deleted row: the relationships reaching them are read again.
    private(set) var touchedEntities: Set<String> = []
    private var keyCount = 0

    /// Nothing is left to merge.
    var isEmpty: Bool { touchedEntities.isEmpty }

    /// The changes of one save. Inserted rows are read again too: an upsert reports the stored row it updated
    /// as inserted.
    init(
        inserted: [PersistentIdentifier] = [], updated: [PersistentIdentifier] = [],
        deleted: [PersistentIdentifier] = []
    ) {
        for identifier in inserted { note(identifier) }
        for identifier in updated { note(identifier) }
        for identifier in deleted { note(identifier) }
    }

    /// Changes to `entityNames` that name no rows: every registered model of theirs is read again.
    init(entityNames: Set<String>) {
        touchedEntities = entityNames
        entitiesWithUnnamedRows = entityNames
    }

    private mutating func note(_ identifier: PersistentIdentifier) {
        let name = identifier.entityName
        touchedEntities.insert(name)
        guard !entitiesWithUnnamedRows.contains(name), let key = identifier.primaryKey else { return }
        if changedKeys[name, default: []].insert(key).inserted { keyCount += 1 }
        if keyCount > Self.keyLimit { forgetKeys() }
    }

    /// These changes followed by `other`.
    mutating func formUnion(_ other: UnmergedChanges) {
        guard !isEmpty else {
            self = other
            return
        }
        touchedEntities.formUnion(other.touchedEntities)
        entitiesWithUnnamedRows.formUnion(other.entitiesWithUnnamedRows)
        for (name, keys) in other.changedKeys where !entitiesWithUnnamedRows.contains(name) {
            let before = changedKeys[name]?.count ?? 0
            changedKeys[name, default: []].formUnion(keys)
            keyCount += (changedKeys[name]?.count ?? 0) - before
        }
        for name in entitiesWithUnnamedRows {
            if let dropped = changedKeys.removeValue(forKey: name) { keyCount -= dropped.count }
        }
        if keyCount > Self.keyLimit { forgetKeys() }
    }

    /// Keeps the changed entities without their keys.
    private mutating func forgetKeys() {
        entitiesWithUnnamedRows.formUnion(changedKeys.keys)
        changedKeys = [:]
        keyCount = 0
    }
}
