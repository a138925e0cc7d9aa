extension Schema {
    /// How one relationship property is stored and kept consistent, resolved once the whole schema is known.
    package struct RelationshipInfo {
        /// How the relationship's references are kept in the store.
        package enum Storage {
            /// A column of the owner's table holding the destination's primary key.
            case foreignKey
            /// Derived from the inverse to-one relationship's foreign key on the destination's table.
            case inverseForeignKey
            /// Rows of a join table: `ownerColumn` holds the owner's key, `targetColumn` the destination's.
            case joinTable(name: String, ownerColumn: String, targetColumn: String)
        }

        package let index: Int
        package let name: String
        package let destination: Entity
        package let isToMany: Bool
        package let isOptional: Bool
        package let inverseIndex: Int?
        package let deleteRule: Relationship.DeleteRule
        package let minimumModelCount: Int
        package let maximumModelCount: Int
        package let storage: Storage
        /// For a to-one that several to-many relationships of the destination name as their inverse (Apple's
        /// `leadingPlants` and `trailingPlants`, both `inverse: \Plant.backyard`): their indexes. Each of those
        /// keeps its own join table, so it reads back exactly the models written to it; this to-one has no single
        /// inverse (``inverseIndex`` is `nil`), and changing it takes the model out of each of them.
        package var sharedInverseIndexes: [Int] = []

        /// The inverse relationship on the destination, if any.
        package var inverse: RelationshipInfo? {
            inverseIndex.flatMap { destination.relationshipInfos[$0] }
        }

        /// The relationships on the destination that name this one as their inverse: the inverse alone, or, for a
        /// to-one that several to-many relationships share as their inverse, each of them.
        package var inverses: [RelationshipInfo] {
            if let inverse { return [inverse] }
            return sharedInverseIndexes.compactMap { destination.relationshipInfos[$0] }
        }
    }

    /// Resolves every entity's relationships: destinations, inverses (given or inferred as SwiftData infers them),
    /// and storage. Problems are collected, not thrown: a container refuses a schema that has any.
    static func resolveRelationships(of entities: [Entity]) -> [StrataError] {
        var problems: [StrataError] = []
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var inverses: [ObjectIdentifier: [Int: Int]] = [:]
        // The relationships naming each relationship as their inverse, to find inverses several of them share.
        var claims: [ObjectIdentifier: [Int: [Int]]] = [:]
        for entity in entities {
            for property in entity.persistentProperties {
                guard let (destinationName, _) = property.relationshipDestination else { continue }
                guard let destination = byName[destinationName] else {
                    problems.append(
                        .invalidSchema(
                            entity: entity.name,
                            reason:
                                "\(property.name) refers to \(destinationName), which is not part of the container's schema; add it to ModelContainer(for:)"
                        ))
                    continue
                }
                let configuration = property.metadata as? Relationship
                if let keyPath = configuration?.inverseKeyPath {
                    guard let inverse = destination.property(for: keyPath),
                        inverse.relationshipDestination?.name == entity.name
                    else {
                        problems.append(
                            .invalidSchema(
                                entity: entity.name,
                                reason:
                                    "the inverse of \(property.name), \(keyPath), is not a relationship of \(destination.name) back to \(entity.name)"
                            ))
                        continue
                    }
                    inverses[ObjectIdentifier(entity), default: [:]][property.index] = inverse.index
                    inverses[ObjectIdentifier(destination), default: [:]][inverse.index] = property.index
                    claims[ObjectIdentifier(destination), default: [:]][inverse.index, default: []].append(
                        property.index)
                }
            }
        }
        // Infer the remaining inverses: exactly one relationship on each side pointing at the other, neither taken.
        for entity in entities {
            for property in entity.persistentProperties where inverses[ObjectIdentifier(entity)]?[property.index] == nil
            {
                guard let (destinationName, _) = property.relationshipDestination,
                    let destination = byName[destinationName]
                else { continue }
                let backward = destination.persistentProperties.filter {
                    $0.relationshipDestination?.name == entity.name
                        && inverses[ObjectIdentifier(destination)]?[$0.index] == nil
                        && !(destination === entity && $0.index == property.index)
                }
                let forward = entity.persistentProperties.filter {
                    $0.relationshipDestination?.name == destination.name
                        && inverses[ObjectIdentifier(entity)]?[$0.index] == nil
                }
                if backward.count == 1, forward.count == 1, let inverse = backward.first {
                    inverses[ObjectIdentifier(entity), default: [:]][property.index] = inverse.index
                    inverses[ObjectIdentifier(destination), default: [:]][inverse.index] = property.index
                }
            }
        }
        for entity in entities {
            var infos: [Int: RelationshipInfo] = [:]
            for property in entity.persistentProperties {
                guard let (destinationName, isToMany) = property.relationshipDestination,
                    let destination = byName[destinationName]
                else { continue }
                let configuration = property.metadata as? Relationship
                let sharers = claims[ObjectIdentifier(entity)]?[property.index] ?? []
                let sharesInverse =
                    (inverses[ObjectIdentifier(entity)]?[property.index]).map {
                        (claims[ObjectIdentifier(destination)]?[$0]?.count ?? 0) > 1
                    } ?? false
                let inverseIndex = sharers.count > 1 ? nil : inverses[ObjectIdentifier(entity)]?[property.index]
                let inverseIsToMany = inverseIndex.map {
                    destination.persistentProperties[$0].relationshipDestination?.isToMany ?? false
                }
                let storage: RelationshipInfo.Storage
                switch (isToMany, inverseIsToMany) {
                case (true, _) where sharesInverse:
                    // One of several relationships sharing an inverse: a foreign key (or a shared join table) would
                    // merge them, so each keeps its own rows.
                    storage = .joinTable(
                        name: StoreLayout.joinTable(entity: entity.name, relationship: property.name),
                        ownerColumn: StoreLayout.ownerColumn, targetColumn: StoreLayout.targetColumn)
                case (false, _): storage = .foreignKey
                case (true, false?): storage = .inverseForeignKey
                case (true, true?):
                    let mine = "\(entity.name)_\(property.name)"
                    let theirs = "\(destination.name)_\(destination.persistentProperties[inverseIndex ?? 0].name)"
                    let (first, second) = mine <= theirs ? (mine, theirs) : (theirs, mine)
                    storage = .joinTable(
                        name: StoreLayout.joinTable(first: first, second: second),
                        ownerColumn: mine <= theirs ? StoreLayout.firstColumn : StoreLayout.secondColumn,
                        targetColumn: mine <= theirs ? StoreLayout.secondColumn : StoreLayout.firstColumn)
                case (true, nil):
                    storage = .joinTable(
                        name: StoreLayout.joinTable(entity: entity.name, relationship: property.name),
                        ownerColumn: StoreLayout.ownerColumn, targetColumn: StoreLayout.targetColumn)
                }
                infos[property.index] = RelationshipInfo(
                    index: property.index, name: property.name, destination: destination, isToMany: isToMany,
                    isOptional: property.isOptional, inverseIndex: inverseIndex,
                    deleteRule: configuration?.deleteRule ?? .nullify,
                    minimumModelCount: configuration?.minimumModelCount ?? 0,
                    maximumModelCount: configuration?.maximumModelCount ?? 0, storage: storage,
                    sharedInverseIndexes: sharers.count > 1 ? sharers : [])
            }
            entity.relationshipInfos = infos
        }
        for entity in entities {
            entity.declaredRelationships = entity.persistentProperties.compactMap { property in
                entity.relationshipInfos[property.index].map {
                    Relationship(resolving: $0, of: property, configuration: property.metadata as? Relationship)
                }
            }
        }
        return problems
    }
}

extension AnyPersistentProperty {
    /// The destination entity's name and whether the relationship is to-many, for relationship properties.
    package var relationshipDestination: (name: String, isToMany: Bool)? {
        switch kind {
        case .attribute: nil
        case .toOne(let destination): (destination, false)
        case .toMany(let destination): (destination, true)
        }
    }
}
