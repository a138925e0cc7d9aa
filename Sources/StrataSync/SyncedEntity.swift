import Foundation
import Strata

/// How an entity's rows travel between replicas: the attribute naming each row on every replica (its sync
/// identity), the attributes whose values are synced, the to-one relationships, synced as the identity of the
/// row they point to, and the relationships stored in join tables, synced as sets of links.
struct SyncedEntity: Sendable {
    let entity: Schema.Entity
    /// The property index of the identity attribute.
    let identityIndex: Int
    /// The name of the identity attribute (its column).
    let identityName: String
    /// The property indexes of every synced attribute, the identity included.
    let attributeIndexes: [Int]

    /// The synced form of every entity of `schema`, in the schema's order.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` for the first entity without one.
    static func all(in schema: Schema) throws -> [SyncedEntity] {
        try schema.entities.map(SyncedEntity.init)
    }

    /// A to-one relationship stored in the entity's rows, synced as the identity of the row it points to.
    struct Reference: Sendable {
        /// The destination entity's name.
        let destination: String
        /// The property index of the destination's identity attribute.
        let identityIndex: Int
    }

    /// The to-one relationships stored in the entity's rows (a foreign key), by property index. A to-many whose
    /// inverse is a to-one is synced through that to-one.
    let references: [Int: Reference]

    /// A relationship stored in a join table (a to-many without a to-one inverse: many-to-many, or one-sided),
    /// synced as a set of links: each replica sends the links it added and removed, so two replicas adding to one
    /// set both keep theirs.
    struct Link: Sendable {
        /// The relationship's property index.
        let index: Int
        /// The destination entity's name.
        let destination: String
        /// The join table, and the columns holding the owner's and the destination's keys.
        let table: String
        let ownerColumn: String
        let targetColumn: String
        /// Whether the owner's key is the join table's first column (`Z_FIRST`, or `Z_OWNER` of a one-sided
        /// to-many): both sides of a many-to-many keep one base of links, in the table's own order.
        var ownerIsFirst: Bool {
            ownerColumn == StoreLayout.firstColumn || ownerColumn == StoreLayout.ownerColumn
        }
    }

    /// The relationships stored in join tables, by property index.
    let links: [Int: Link]

    /// The property index of every synced property: the attributes, then the to-one relationships.
    let propertyIndexes: [Int]

    init(_ entity: Schema.Entity) throws {
        let identity = try Self.identity(of: entity)
        self.entity = entity
        self.identityIndex = identity.index
        self.identityName = identity.name
        self.attributeIndexes = entity.persistentProperties.compactMap { property in
            if case .attribute = property.kind, entity.attributesByName[property.name]?.isTransient != true {
                return property.index
            }
            return nil
        }
        var references: [Int: Reference] = [:]
        for (index, info) in entity.relationshipInfos where !info.isToMany {
            guard case .foreignKey = info.storage else { continue }
            let destination = try Self.identity(of: info.destination)
            references[index] = Reference(destination: info.destination.name, identityIndex: destination.index)
        }
        self.references = references
        self.propertyIndexes = attributeIndexes + references.keys.sorted()
        var links: [Int: Link] = [:]
        for (index, info) in entity.relationshipInfos {
            guard case .joinTable(let table, let ownerColumn, let targetColumn) = info.storage else { continue }
            _ = try Self.identity(of: info.destination)
            links[index] = Link(
                index: index, destination: info.destination.name, table: table, ownerColumn: ownerColumn,
                targetColumn: targetColumn)
        }
        self.links = links
        self.trackedIndexes = propertyIndexes + links.keys.sorted()
    }

    /// The property index of every property sync follows: ``propertyIndexes``, then the ``links``.
    let trackedIndexes: [Int]

    /// The entity's identity attribute.
    /// - Throws: ``SyncError/missingSyncIdentity(entity:reason:)`` when it has none, or several.
    private static func identity(of entity: Schema.Entity) throws -> (index: Int, name: String) {
        let candidates = entity.persistentProperties.filter { property in
            guard case .attribute = property.kind, property.valueType == UUID.self,
                let attribute = entity.attributesByName[property.name]
            else { return false }
            return attribute.isUnique
        }
        guard let identity = candidates.first else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name, reason: "it has no unique, non-optional UUID attribute")
        }
        guard candidates.count == 1 else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name,
                reason:
                    "it has \(candidates.count) unique UUID attributes (\(candidates.map(\.name).joined(separator: ", "))) "
                    + "and sync needs exactly one")
        }
        guard entity.attributesByName[identity.name]?.options.contains(.preserveValueOnDeletion) == true else {
            throw SyncError.missingSyncIdentity(
                entity: entity.name,
                reason: "its unique UUID attribute `\(identity.name)` is not `.preserveValueOnDeletion`, so a deleted "
                    + "row's identity would be lost from the history the other replicas read")
        }
        return (identity.index, identity.name)
    }

    /// The property index of each property sync follows named in `names` (unknown names, and to-many
    /// relationships synced through their to-one inverse, left out).
    func trackedIndexes(named names: [String]) -> [Int] {
        let wanted = Set(names)
        return trackedIndexes.filter { wanted.contains(entity.persistentProperties[$0].name) }
    }
}
