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

        /// Whether a save writes this relationship's changes as join-table rows added and removed (so the models
        /// it gained and lost are kept until then); a foreign key saves its current target instead.
        package var savesJoinRows: Bool {
            if case .joinTable = storage { return true }
            return false
        }

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
        var resolution = RelationshipResolution(entities: entities)
        resolution.pairDeclaredInverses()
        resolution.inferRemainingInverses()
        resolution.recordRelationshipInfos()
        resolution.recordDeclaredRelationships()
        return resolution.problems
    }
}

/// The phases of ``Schema/resolveRelationships(of:)`` and what they find, each phase reading what the ones before
/// it found: the inverses the schema declares, then the ones SwiftData would infer, then each relationship's
/// storage, then the public `Relationship` values.
private struct RelationshipResolution {
    let entities: [Schema.Entity]
    let byName: [String: Schema.Entity]
    var problems: [StrataError] = []
    /// Each entity's relationship indexes paired with their inverse's index on the destination.
    var inverses: [ObjectIdentifier: [Int: Int]] = [:]
    /// The relationships naming each relationship as their inverse, to find inverses several of them share.
    var claims: [ObjectIdentifier: [Int: [Int]]] = [:]

    init(entities: [Schema.Entity]) {
        self.entities = entities
        byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Pairs each relationship with the inverse its `@Relationship(inverse:)` names, and records a problem for a
    /// destination outside the schema or an inverse that doesn't point back.
    mutating func pairDeclaredInverses() {
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
                guard let keyPath = (property.metadata as? Schema.Relationship)?.inverseKeyPath else { continue }
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
                pair(property.index, of: entity, with: inverse.index, of: destination)
                claims[ObjectIdentifier(destination), default: [:]][inverse.index, default: []].append(property.index)
            }
        }
    }

    /// Infers the remaining inverses as SwiftData does: exactly one relationship on each side pointing at the
    /// other, neither paired yet.
    mutating func inferRemainingInverses() {
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
                    pair(property.index, of: entity, with: inverse.index, of: destination)
                }
            }
        }
    }

    /// Records both sides of an inverse pair.
    private mutating func pair(
        _ index: Int, of entity: Schema.Entity, with inverseIndex: Int, of destination: Schema.Entity
    ) {
        inverses[ObjectIdentifier(entity), default: [:]][index] = inverseIndex
        inverses[ObjectIdentifier(destination), default: [:]][inverseIndex] = index
    }

    /// Sets each entity's `relationshipInfos`: destination, inverse, rules and storage of every relationship.
    func recordRelationshipInfos() {
        for entity in entities {
            var infos: [Int: Schema.RelationshipInfo] = [:]
            for property in entity.persistentProperties {
                guard let (destinationName, isToMany) = property.relationshipDestination,
                    let destination = byName[destinationName]
                else { continue }
                let configuration = property.metadata as? Schema.Relationship
                let sharers = claims[ObjectIdentifier(entity)]?[property.index] ?? []
                let inverseIndex = sharers.count > 1 ? nil : inverses[ObjectIdentifier(entity)]?[property.index]
                infos[property.index] = Schema.RelationshipInfo(
                    index: property.index, name: property.name, destination: destination, isToMany: isToMany,
                    isOptional: property.isOptional, inverseIndex: inverseIndex,
                    deleteRule: configuration?.deleteRule ?? .nullify,
                    minimumModelCount: configuration?.minimumModelCount ?? 0,
                    maximumModelCount: configuration?.maximumModelCount ?? 0,
                    storage: storage(of: property, in: entity, to: destination, inverseIndex: inverseIndex),
                    sharedInverseIndexes: sharers.count > 1 ? sharers : [])
            }
            entity.relationshipInfos = infos
        }
    }

    /// How a relationship is stored: a to-one as a foreign key; a to-many as its to-one inverse's foreign key, as
    /// a join table shared with its to-many inverse, or as a join table of its own (no inverse, or one of several
    /// relationships sharing an inverse, which a foreign key or a shared join table would merge).
    private func storage(
        of property: any AnyPersistentProperty, in entity: Schema.Entity, to destination: Schema.Entity,
        inverseIndex: Int?
    ) -> Schema.RelationshipInfo.Storage {
        guard property.relationshipDestination?.isToMany == true else { return .foreignKey }
        let sharesInverse =
            (inverses[ObjectIdentifier(entity)]?[property.index]).map {
                (claims[ObjectIdentifier(destination)]?[$0]?.count ?? 0) > 1
            } ?? false
        let inverseIsToMany = inverseIndex.map {
            destination.persistentProperties[$0].relationshipDestination?.isToMany ?? false
        }
        guard !sharesInverse, let inverseIsToMany else {
            return .joinTable(
                name: StoreLayout.joinTable(entity: entity.name, relationship: property.name),
                ownerColumn: StoreLayout.ownerColumn, targetColumn: StoreLayout.targetColumn)
        }
        guard inverseIsToMany else { return .inverseForeignKey }
        let mine = "\(entity.name)_\(property.name)"
        let theirs = "\(destination.name)_\(destination.persistentProperties[inverseIndex ?? 0].name)"
        let (first, second) = mine <= theirs ? (mine, theirs) : (theirs, mine)
        return .joinTable(
            name: StoreLayout.joinTable(first: first, second: second),
            ownerColumn: mine <= theirs ? StoreLayout.firstColumn : StoreLayout.secondColumn,
            targetColumn: mine <= theirs ? StoreLayout.secondColumn : StoreLayout.firstColumn)
    }

    /// Sets each entity's `declaredRelationships`, the public `Relationship` of every resolved relationship.
    func recordDeclaredRelationships() {
        for entity in entities {
            entity.declaredRelationships = entity.persistentProperties.compactMap { property in
                entity.relationshipInfos[property.index].map {
                    Schema.Relationship(
                        resolving: $0, of: property, configuration: property.metadata as? Schema.Relationship)
                }
            }
        }
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
