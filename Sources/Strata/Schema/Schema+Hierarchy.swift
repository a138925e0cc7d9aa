extension Schema {
    /// Links each entity to the entity of its model's superclass (a `@Model` subclass of another `@Model` class),
    /// so both know their place in the hierarchy.
    static func linkHierarchies(of entities: [Entity]) {
        let byType = Dictionary(
            entities.map { (ObjectIdentifier($0.modelType), $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            guard let superclass = _getSuperclass(entity.modelType), let parent = byType[ObjectIdentifier(superclass)]
            else {
                continue
            }
            entity.parentEntity = parent
            parent.childEntities.append(entity)
        }
        // A key path rooted at the subclass (`\Dog.name`) is not equal to the superclass's (`\Animal.name`).
        for entity in entities where entity.parentEntity != nil {
            var indexes: [AnyKeyPath: Int] = [:]
            for (index, keyPath) in entity.modelType._$strataInheritedKeyPaths.enumerated() { indexes[keyPath] = index }
            entity.inheritedKeyPathIndexes = indexes
        }
    }
}

extension Schema.Entity {
    /// The entity of the model's superclass, when the model is a subclass of another model (`@Model class Dog:
    /// Animal`); `nil` for a base model.
    public var superentity: Schema.Entity? { parentEntity }

    /// The name of ``superentity``: the model's superclass's entity name, or `nil` for a base model.
    public var superentityName: String? { parentEntity?.name ?? decodedSuperentityName }

    /// The entities of the model's direct subclasses in the schema.
    public var subentities: Set<Schema.Entity> { Set(childEntities) }

    /// The base model's entity of the hierarchy (the entity itself for a base model): its table holds the rows of
    /// every entity in the hierarchy.
    package var rootEntity: Schema.Entity {
        var entity = self
        while let parent = entity.parentEntity { entity = parent }
        return entity
    }

    /// The name of the table holding the entity's rows: the root entity's.
    package var tableName: String { rootEntity.name }

    /// Whether the entity shares its table with other entities, whose rows its `Z_ENT` column tells apart.
    package var isInHierarchy: Bool { parentEntity != nil || !childEntities.isEmpty }

    /// The entity and every entity below it, depth-first: the rows a fetch of the entity reads.
    package var selfAndDescendants: [Schema.Entity] {
        [self] + childEntities.flatMap(\.selfAndDescendants)
    }

    /// The entity among `selfAndDescendants` named `name`.
    package func descendant(named name: String) -> Schema.Entity? {
        if self.name == name { return self }
        for child in childEntities {
            if let found = child.descendant(named: name) { return found }
        }
        return nil
    }

    /// Whether an identifier naming entity `name` may name one of this entity's rows: `name` is an entity of the
    /// same hierarchy (primary keys are unique across a hierarchy's table, so the key alone tells the row).
    package func sharesRows(withEntityNamed name: String) -> Bool {
        self.name == name || rootEntity.descendant(named: name) != nil
    }

    /// The property indexes this entity declares itself (not inherited from its superentity).
    package var ownPropertyIndexes: Range<Int> {
        (parentEntity?.persistentProperties.count ?? 0)..<persistentProperties.count
    }

    /// The columns of the entity's table: for a hierarchy's root, its own and then those each entity below it
    /// declares, with the entity declaring each; for any other entity, its own columns.
    package var tableColumns: [(entity: Schema.Entity, index: Int)] {
        guard parentEntity == nil, !childEntities.isEmpty else { return columnPropertyIndexes.map { (self, $0) } }
        return selfAndDescendants.flatMap { entity in
            entity.columnPropertyIndexes.filter { entity.ownPropertyIndexes.contains($0) }.map { (entity, $0) }
        }
    }
}

extension Schema.Entity {
    /// The entities whose rows the entity's table holds: the whole hierarchy for a root, the entity alone otherwise.
    package var tableEntities: [Schema.Entity] {
        parentEntity == nil ? selfAndDescendants : [self]
    }

    /// Whether the entity's table has the entity column: the table of a hierarchy.
    package var tableHasEntityColumn: Bool { !rootEntity.childEntities.isEmpty }

    /// The relationships the entity declares itself, by property index, in order.
    package var ownRelationshipIndexes: [Int] {
        relationshipInfos.keys.filter(ownPropertyIndexes.contains).sorted()
    }

    /// The uniqueness constraints the entity adds to its superentity's.
    package var ownUniquenessConstraints: [[String]] {
        let inherited = Set(parentEntity?.uniquenessConstraints ?? [])
        return uniquenessConstraints.filter { !inherited.contains($0) }
    }
}

extension Schema.Entity {
    /// The key of the identity map holding the entity's registered models: its hierarchy's root's, since one
    /// row is one model whichever entity of the hierarchy a fetch asked for.
    package var identityKey: ObjectIdentifier { rootEntityIdentity ?? ObjectIdentifier(self) }

    /// Keeps ``identityKey`` true after ``parentEntity`` changed, for this entity and every entity below it.
    ///
    /// Walks at most `maximumDepth` links up and down: only a decoded schema whose superentity names form a
    /// cycle goes further, and a container refuses a decoded schema.
    func noteRootEntity(depth: Int = 0) {
        let maximumDepth = 64
        guard depth < maximumDepth else { return }
        var root = parentEntity
        var steps = 0
        while let parent = root?.parentEntity, steps < maximumDepth {
            root = parent
            steps += 1
        }
        rootEntityIdentity = root.map { ObjectIdentifier($0) }
        for child in childEntities { child.noteRootEntity(depth: depth + 1) }
    }
}

extension Schema.Entity {
    /// Whether a model of the entity can't be made before its row is read: a model with `let` properties (set as
    /// it is made), or one with subentities (the row's entity column says which class to make).
    package var cannotBeFault: Bool { !constantPropertyIndexes.isEmpty || !childEntities.isEmpty }
}
