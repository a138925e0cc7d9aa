extension ModelBackingData {
    // MARK: - To-one

    /// Stores a to-one relationship's initial value while the model's initializer runs.
    public func setInitialValue<Model, Target: PersistentModel>(
        _ value: Target?, for property: PersistentProperty<Model, Target?>
    ) {
        guard state == .detached else { return }
        relationshipTargets[property.index] = value.map { [$0] } ?? []
        changedRelationships.insert(property.index)
    }

    /// Reads a to-one relationship, loading (or faulting) the related model when first read.
    @inlinable
    public func getValue<Model, Target: PersistentModel>(for property: PersistentProperty<Model, Target?>) -> Target? {
        relatedModel(at: property.index, as: Target.self)
    }

    /// Assigns a to-one relationship, keeping the inverse relationship in step.
    public func setValue<Model: PersistentModel, Target: PersistentModel>(
        _ value: Target?, for property: PersistentProperty<Model, Target?>, on model: Model
    ) {
        let old = relatedModels(at: property.index)
        if old.first === value, old.count == (value == nil ? 0 : 1) { return }
        assignRelationship(value.map { [$0] } ?? [], at: property.index, removed: old, on: model)
    }

    // MARK: - Non-optional to-one (a required foreign key)

    /// Stores a non-optional to-one relationship's initial value while the model's initializer runs.
    public func setInitialValue<Model, Target: PersistentModel>(
        _ value: Target, for property: PersistentProperty<Model, Target>
    ) {
        guard state == .detached else { return }
        relationshipTargets[property.index] = [value]
        changedRelationships.insert(property.index)
    }

    /// Reads a non-optional to-one relationship, loading (or faulting) the related model when first read.
    ///
    /// A required relationship can still hold no model: after its model was deleted (and the relationship
    /// nullified), or in a row written without it. It then reads as a deleted stand-in (`isDeleted` is `true`,
    /// every property empty), never a trap, and saving the model throws
    /// `StrataError.missingRequiredRelationship` until it is assigned.
    public func getValue<Model, Target: PersistentModel>(for property: PersistentProperty<Model, Target>) -> Target {
        if let target = relatedModel(at: property.index, as: Target.self) { return target }
        let standIn = ModelBackingData.make(propertyCount: Target.schemaMetadata.count)
        standIn.state = .deletedAndSaved
        return Target(backingData: standIn)
    }

    /// Assigns a non-optional to-one relationship, keeping the inverse relationship in step.
    public func setValue<Model: PersistentModel, Target: PersistentModel>(
        _ value: Target, for property: PersistentProperty<Model, Target>, on model: Model
    ) {
        let old = relatedModels(at: property.index)
        if old.first === value, old.count == 1 { return }
        assignRelationship([value], at: property.index, removed: old, on: model)
    }

    // MARK: - To-many

    /// Stores a to-many relationship's initial value while the model's initializer runs.
    public func setInitialValue<Model, Target: PersistentModel>(
        _ value: [Target], for property: PersistentProperty<Model, [Target]>
    ) {
        guard state == .detached else { return }
        relationshipTargets[property.index] = value.withoutRepeatedModels
        if !value.isEmpty { changedRelationships.insert(property.index) }
    }

    /// Reads a to-many relationship, loading the related models when first read.
    @inlinable
    public func getValue<Model, Target: PersistentModel>(for property: PersistentProperty<Model, [Target]>) -> [Target]
    {
        relatedModels(at: property.index, as: Target.self)
    }

    /// Assigns a to-many relationship, keeping the inverse relationships in step.
    public func setValue<Model: PersistentModel, Target: PersistentModel>(
        _ value: [Target], for property: PersistentProperty<Model, [Target]>, on model: Model
    ) {
        assignToMany(value, at: property.index, on: model)
    }

    /// Assigns a to-many relationship: only the models added and removed change their inverses.
    private func assignToMany(_ value: [any PersistentModel], at index: Int, on model: some PersistentModel) {
        // A to-many relationship holds each model once, as SwiftData's does: `items.insert(item, at: 0)` after
        // `item.owner = owner` (which already added it) leaves it once, where it was inserted.
        let value = value.withoutRepeatedModels
        let old = relatedModels(at: index)
        let kept = Set(value.map { ObjectIdentifier($0) })
        let removed = old.filter { !kept.contains(ObjectIdentifier($0)) }
        let previous = Set(old.map { ObjectIdentifier($0) })
        guard !removed.isEmpty || value.contains(where: { !previous.contains(ObjectIdentifier($0)) }) else {
            relationshipTargets[index] = value
            return
        }
        assignRelationship(value, at: index, removed: removed, on: model)
    }

    // MARK: - Optional to-many (reads as an empty array, never `nil`, as in SwiftData)

    /// Stores an optional to-many relationship's initial value while the model's initializer runs (`nil` is empty).
    public func setInitialValue<Model, Target: PersistentModel>(
        _ value: [Target]?, for property: PersistentProperty<Model, [Target]?>
    ) {
        guard state == .detached else { return }
        relationshipTargets[property.index] = (value ?? []).withoutRepeatedModels
        if !(value ?? []).isEmpty { changedRelationships.insert(property.index) }
    }

    /// Reads an optional to-many relationship: the related models, an empty array when there are none.
    @inlinable
    public func getValue<Model, Target: PersistentModel>(
        for property: PersistentProperty<Model, [Target]?>
    ) -> [Target]? {
        relatedModels(at: property.index, as: Target.self)
    }

    /// Assigns an optional to-many relationship (`nil` empties it), keeping the inverse relationships in step.
    public func setValue<Model: PersistentModel, Target: PersistentModel>(
        _ value: [Target]?, for property: PersistentProperty<Model, [Target]?>, on model: Model
    ) {
        assignToMany(value ?? [], at: property.index, on: model)
    }

    // MARK: - Shared

    /// The related models of a relationship, loaded from the store (by the context) when not read yet.
    @usableFromInline
    package func relatedModels(at index: Int) -> [any PersistentModel] {
        if let targets = relationshipTargets[index] { return targets }
        loadRelationship(at: index)
        return relationshipTargets[index] ?? []
    }

    /// The related models of a to-many relationship as `Target`s. A model whose class is `Target` itself, as nearly
    /// all are, is taken as it is: the runtime's cast of an existential to a generic class costs more than the rest
    /// of the read. A model of a subclass is cast. Inlined where the `@Model` macro reads the relationship, so the
    /// array of `Target`s is made by code specialized for it rather than by the generic code of the runtime.
    @inlinable
    func relatedModels<Target: PersistentModel>(at index: Int, as _: Target.Type) -> [Target] {
        let models = relatedModels(at: index)
        var targets: [Target] = []
        targets.reserveCapacity(models.count)
        for model in models {
            if type(of: model) == Target.self {
                targets.append(unsafeDowncast(model as AnyObject, to: Target.self))
            } else if let target = model as? Target {
                targets.append(target)
            }
        }
        return targets
    }

    /// The first related model of a relationship as a `Target`, taken as it is when its class is `Target` (as
    /// ``relatedModels(at:as:)`` takes each): inlined where the `@Model` macro reads the relationship, so the read
    /// makes no call to the runtime's dynamic cast.
    @inlinable
    func relatedModel<Target: PersistentModel>(at index: Int, as _: Target.Type) -> Target? {
        guard let model = relatedModel(at: index) else { return nil }
        if type(of: model) == Target.self { return unsafeDowncast(model as AnyObject, to: Target.self) }
        return model as? Target
    }

    /// The first related model of a relationship (a to-one's target), loaded as ``relatedModels(at:)`` loads it;
    /// reading one already loaded makes no array.
    @usableFromInline
    package func relatedModel(at index: Int) -> (any PersistentModel)? {
        // Read in place through the header's pointer: `relationshipTargets` would copy every stored relationship.
        let stored = fields.pointee.relationshipTargets.firstTarget(at: index)
        if stored.isStored { return stored.model }
        loadRelationship(at: index)
        return fields.pointee.relationshipTargets.firstTarget(at: index).model
    }

    /// Loads relationship `index` into `relationshipTargets`: through the context, or from the store when the
    /// context is gone.
    private func loadRelationship(at index: Int) {
        if unloadedProperties != nil { loadUnloadedProperties() }
        if let context {
            _ = context.loadRelationship(at: index, of: self)
        } else {
            _ = relatedModelsFromStore(at: index)
        }
    }

    func assignRelationship(
        _ targets: [any PersistentModel], at index: Int, removed: [any PersistentModel], on model: some PersistentModel
    ) {
        let before = relationshipTargets[index] ?? []
        let previous = Set(before.map { ObjectIdentifier($0) })
        let added = targets.filter { !previous.contains(ObjectIdentifier($0)) }
        context?.registerUndoOfRelationshipChange(of: model, at: index, from: before)
        relationshipTargets[index] = targets
        changedRelationships.insert(index)
        if keepsJoinChanges(at: index) {
            if !added.isEmpty { joinAdditions[index, default: []].append(contentsOf: added) }
            if !removed.isEmpty { joinRemovals[index, default: []].append(contentsOf: removed) }
        }
        if let context {
            context.relationshipDidChange(of: model, at: index, added: added, removed: removed)
        } else if let context = (added + removed).lazy.compactMap({ $0.persistentBackingData.context }).first {
            // Referencing a model that is in a context brings this one in too (which sets the inverses).
            context.insertAny(model)
        } else if let info = Schema.detachedEntity(for: type(of: model)).relationshipInfos[index] {
            // Neither side is in a context: the inverses are set now all the same, and inserting either model
            // later brings in the other with the relationship.
            ModelBackingData.updateInverses(of: model, relationship: info, added: added, removed: removed, in: nil)
        }
    }
}

extension ModelBackingData {
    /// Whether relationship `index` keeps the models it gained and lost (`joinAdditions`, `joinRemovals`) for the
    /// save: a join table's does; a foreign key saves its current target alone. A model in no schema yet keeps
    /// them, its storage not being known.
    func keepsJoinChanges(at index: Int) -> Bool {
        entity?.relationshipInfos[index]?.savesJoinRows ?? true
    }
}

extension Array {
    /// The models (class instances) in order, each only where it first appears.
    fileprivate var withoutRepeatedModels: [Element] {
        guard count > 1 else { return self }
        var seen = Set<ObjectIdentifier>(minimumCapacity: count)
        let unique = filter { seen.insert(ObjectIdentifier($0 as AnyObject)).inserted }
        return unique.count == count ? self : unique
    }
}
