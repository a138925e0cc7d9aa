/// The models a context has registered, and what it keeps about them so relationship reads and live results
/// don't have to look at every one.
///
/// A context holds at most one model per row: the identity map (one ``IdentityMap`` per entity hierarchy, keyed
/// by `Schema.Entity.identityKey`) gives the model of a row, so a row fetched twice or reached through a
/// relationship is the same object. Beside it:
/// - ``revision`` counts the events that can take a registered model out or put another in its place (saves,
///   removals of models whose rows are gone, an erase), other than `enumerate` releasing its pages;
/// - ``pendingOwners`` and ``pendingFaults`` list, by entity, the models registered since a relationship was last
///   loaded for them and the faults registered since faults were last filled
///   (`ModelContext+RelationshipBatches`); ``pendingPartialModels`` the models registered with some properties
///   left out (`ModelContext+PartialModels`);
/// - ``readSerials`` tells live results for which save each row was last read from the store.
///
/// Invariant: a model registered under a key of an entity is backed by that row — its backing data's primary key is
/// the key, and its entity belongs to that hierarchy. Debug builds check it at each ``register(_:for:of:)``; a map
/// taken out for bulk work (``takeMap(of:)``) is filled by code that makes each model for its key.
///
/// A class, which its context holds in a constant: as a structure in the context's variable, every lookup copied
/// it — retaining and releasing each of its five tables — since the lookup's calls might have changed the variable
/// meanwhile. Its tables opt out of dynamic exclusivity checks as the context's bookkeeping does: it is used from the
/// context's isolation domain, and no access spans a call that reaches the same table again.
package final class ModelRegistry {
    /// The identity map of each entity hierarchy.
    @exclusivity(unchecked) private var maps = IdentityKeyedTable<IdentityMap>()
    /// Counts the saves and removals that can change which model a key maps to (see the type's description).
    @exclusivity(unchecked) package private(set) var revision = 0
    /// By entity, the registered models whose relationships a read may load together.
    @exclusivity(unchecked) var pendingOwners: [ObjectIdentifier: ModelContext.PendingOwners] = [:]
    /// By entity, the primary keys of the faults registered since faults were last filled.
    @exclusivity(unchecked) var pendingFaults: [ObjectIdentifier: [Int64]] = [:]
    /// By entity and the properties they miss, the models registered with some properties left out, in the order
    /// they were registered.
    @exclusivity(unchecked) var pendingPartialModels:
        [ModelContext.PartialModelGroup: ModelContext.PendingPartialModels] = [:]
    /// For live results: by entity, the save (event serial) for which each row was last read from the store.
    @exclusivity(unchecked) var readSerials: [ObjectIdentifier: [Int64: UInt64]] = [:]

    /// An empty registry.
    package init() {}

    // MARK: - Looking models up

    /// The model registered for row `key` of the hierarchy `entityKey`, if any.
    package subscript(entityKey: ObjectIdentifier, key: Int64) -> (any PersistentModel)? {
        maps[entityKey]?[key]
    }

    /// The model registered for row `key` of `entity`'s hierarchy, if any.
    package func model(_ key: Int64, of entity: Schema.Entity) -> (any PersistentModel)? {
        maps[entity.identityKey]?[key]
    }

    /// The identity map of the hierarchy `entityKey`, for several lookups in a row; `nil` when none is registered.
    package func map(of entityKey: ObjectIdentifier) -> IdentityMap? {
        maps[entityKey]
    }

    /// How many models of the hierarchy `entityKey` are registered.
    package func count(of entityKey: ObjectIdentifier) -> Int {
        maps[entityKey]?.count ?? 0
    }

    /// Calls `body` with every registered model and its row's key.
    package func forEachModel(_ body: (Int64, any PersistentModel) -> Void) {
        for map in maps.values { map.forEachModel(body) }
    }

    // MARK: - Registering and removing

    /// Registers `model` as the model of row `key` of the hierarchy `entityKey`, replacing any other.
    package func register(_ model: any PersistentModel, for key: Int64, of entityKey: ObjectIdentifier) {
        Self.assertBacked(model, by: key, of: entityKey)
        maps[entityKey, default: IdentityMap()][key] = model
    }

    /// Takes the model of row `key` of the hierarchy `entityKey` out because its row is gone or it no longer
    /// stands for the row — when it is `model`, or whatever model it is when `model` is `nil` — and counts the
    /// removal in ``revision``.
    package func remove(
        _ key: Int64, of entityKey: ObjectIdentifier, ifItIs model: (any PersistentModel)? = nil
    ) {
        guard let registered = maps[entityKey]?[key], model.map({ $0 === registered }) ?? true else { return }
        revision += 1
        maps[entityKey]?[key] = nil
    }

    /// Notes a save: the models it deleted leave and its inserts register, so keys may map to other models.
    package func noteSave() {
        revision += 1
    }

    /// Forgets every registered model and what was kept about them (the store was erased).
    package func removeAll() {
        maps.removeAll()
        pendingOwners.removeAll()
        pendingFaults.removeAll()
        pendingPartialModels.removeAll()
        readSerials.removeAll()
        revision += 1
    }

    // MARK: - Working on one map at a time

    /// Takes the identity map of the hierarchy `entityKey` out of the registry, to register or release many
    /// models without the map being copied on write; ``restoreMap(_:of:)`` puts it back. Between the two, the
    /// registry holds no model of that hierarchy.
    package func takeMap(of entityKey: ObjectIdentifier) -> IdentityMap {
        maps.removeValue(forKey: entityKey) ?? IdentityMap()
    }

    /// Puts back a map taken with ``takeMap(of:)``, with the models registered in it meanwhile.
    package func restoreMap(_ map: IdentityMap, of entityKey: ObjectIdentifier) {
        maps[entityKey] = map
    }

    /// Stops in a debug build when `model` isn't backed by row `key` of the hierarchy `entityKey`.
    static func assertBacked(_ model: any PersistentModel, by key: Int64, of entityKey: ObjectIdentifier) {
        assert(
            {
                let data = model.persistentBackingData
                return data.primaryKey == key && (data.entity.map { $0.identityKey == entityKey } ?? true)
            }(), "Strata: a model registered for row \(key) is backed by another row or entity")
    }
}
